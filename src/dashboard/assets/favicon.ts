/**
 * The project's icon: a paper plane leaving a rounded square in the accent colour, drawn here as
 * geometry on a 32-unit grid (no file, no build step). The same shapes make the SVG the pages link
 * (`/app/assets/icon.svg`) and the 32x32 PNG inside the ICO browsers ask for at `/favicon.ico`,
 * rasterized once on first use (a PNG with stored, uncompressed deflate blocks: pure code, the same
 * on Node and in the Worker). Colours are the light theme's accent, accent-soft and contrast tokens
 * (an icon sits on the browser's chrome, not on our page, so it cannot use the CSS variables).
 */

type Point = readonly [number, number]
type Rgb = readonly [number, number, number]

const SIZE = 32
const CORNER = 7
const ACCENT: Rgb = [0x22, 0x51, 0xcc]
const UPPER_WING: Rgb = [0xff, 0xff, 0xff]
const LOWER_WING: Rgb = [0xc4, 0xd4, 0xf8]

/** The plane: its upper wing, then its lower wing (painted over the square, in this order). */
const WINGS: ReadonlyArray<{ points: readonly Point[]; colour: Rgb }> = [
  {
    points: [
      [5.5, 15],
      [26.5, 6],
      [13.5, 18.5],
    ],
    colour: UPPER_WING,
  },
  {
    points: [
      [13.5, 18.5],
      [26.5, 6],
      [19.5, 26],
      [15.5, 20.5],
    ],
    colour: LOWER_WING,
  },
]

const hex = (rgb: Rgb) => `#${rgb.map((v) => v.toString(16).padStart(2, '0')).join('')}`

/** The icon as SVG (served as image/svg+xml). */
export const FAVICON_SVG = [
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${SIZE} ${SIZE}">`,
  `<rect width="${SIZE}" height="${SIZE}" rx="${CORNER}" fill="${hex(ACCENT)}"/>`,
  ...WINGS.map(
    ({ points, colour }) =>
      `<polygon points="${points.map(([x, y]) => `${x},${y}`).join(' ')}" fill="${hex(colour)}"/>`,
  ),
  '</svg>',
].join('')

/** Whether a point is inside a polygon (even-odd crossings). */
function inside(points: readonly Point[], x: number, y: number): boolean {
  let result = false
  for (let i = 0, j = points.length - 1; i < points.length; j = i++) {
    const [xi, yi] = points[i]!
    const [xj, yj] = points[j]!
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) result = !result
  }
  return result
}

/** Whether a point is inside the rounded square. */
function inSquare(x: number, y: number): boolean {
  const cx = Math.min(Math.max(x, CORNER), SIZE - CORNER)
  const cy = Math.min(Math.max(y, CORNER), SIZE - CORNER)
  return (x - cx) ** 2 + (y - cy) ** 2 <= CORNER ** 2
}

/** The colour at a point, or null outside the icon. */
function colourAt(x: number, y: number): Rgb | null {
  if (!inSquare(x, y)) return null
  let colour = ACCENT
  for (const wing of WINGS) if (inside(wing.points, x, y)) colour = wing.colour
  return colour
}

/** RGBA pixels, 4x4 samples per pixel. */
function rasterize(): Uint8Array {
  const pixels = new Uint8Array(SIZE * SIZE * 4)
  const samples = 4
  for (let py = 0; py < SIZE; py++) {
    for (let px = 0; px < SIZE; px++) {
      const sum = [0, 0, 0, 0]
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const colour = colourAt(px + (sx + 0.5) / samples, py + (sy + 0.5) / samples)
          if (!colour) continue
          sum[0]! += colour[0]
          sum[1]! += colour[1]
          sum[2]! += colour[2]
          sum[3]! += 1
        }
      }
      const covered = sum[3]!
      const at = (py * SIZE + px) * 4
      if (covered === 0) continue
      pixels.set([sum[0]! / covered, sum[1]! / covered, sum[2]! / covered, (covered / samples ** 2) * 255], at)
    }
  }
  return pixels
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}

function adler32(bytes: Uint8Array): number {
  let a = 1
  let b = 0
  for (const byte of bytes) {
    a = (a + byte) % 65521
    b = (b + a) % 65521
  }
  return ((b << 16) | a) >>> 0
}

/** Bytes written big-endian (PNG) or little-endian (ICO). */
function concat(parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  return out
}
const u32be = (n: number) => new Uint8Array([n >>> 24, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff])
const u16le = (n: number) => new Uint8Array([n & 0xff, n >>> 8])
const u32le = (n: number) => new Uint8Array([n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, n >>> 24])

function chunk(type: string, data: Uint8Array): Uint8Array {
  const typed = concat([new TextEncoder().encode(type), data])
  return concat([u32be(data.length), typed, u32be(crc32(typed))])
}

/** A zlib stream of stored (uncompressed) deflate blocks. */
function zlibStored(data: Uint8Array): Uint8Array {
  const blocks: Uint8Array[] = [new Uint8Array([0x78, 0x01])]
  for (let at = 0; at < data.length || at === 0; at += 65535) {
    const part = data.subarray(at, at + 65535)
    const last = at + 65535 >= data.length ? 1 : 0
    blocks.push(new Uint8Array([last]), u16le(part.length), u16le(~part.length & 0xffff), part)
  }
  blocks.push(u32be(adler32(data)))
  return concat(blocks)
}

/** The 32x32 icon as PNG (8-bit RGBA). */
function png(): Uint8Array {
  const pixels = rasterize()
  const rows = new Uint8Array(SIZE * (SIZE * 4 + 1))
  for (let y = 0; y < SIZE; y++) rows.set(pixels.subarray(y * SIZE * 4, (y + 1) * SIZE * 4), y * (SIZE * 4 + 1) + 1)
  const header = concat([u32be(SIZE), u32be(SIZE), new Uint8Array([8, 6, 0, 0, 0])])
  return concat([
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlibStored(rows)),
    chunk('IEND', new Uint8Array()),
  ])
}

let ico: Uint8Array<ArrayBuffer> | undefined

/** The icon as an ICO file holding the 32x32 PNG (what `/favicon.ico` answers), made once. */
export function faviconIco(): Uint8Array<ArrayBuffer> {
  if (ico) return ico
  const image = png()
  const directory = concat([
    new Uint8Array([SIZE, SIZE, 0, 0]),
    u16le(1),
    u16le(32),
    u32le(image.length),
    u32le(6 + 16),
  ])
  ico = concat([u16le(0), u16le(1), u16le(1), directory, image])
  return ico
}
