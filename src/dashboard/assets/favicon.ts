/**
 * The product's mark (a paper sheet sent along an arc, drawn for this project) as the browser's icon:
 * the brand's 24-unit line path (BRAND_MARK_PATH, also drawn in the dashboard's top bar) in the
 * accent-contrast colour on a rounded square in the accent colour. The SVG the pages link
 * (`/app/assets/icon.svg`) draws the path itself; the 32x32 PNG inside the ICO browsers ask for at
 * `/favicon.ico` is rasterized from the same path on first use (its lines and arcs flattened, each
 * pixel sampled 4x4; a PNG with stored deflate blocks: pure code, the same on Node and in the Worker).
 * Colours are the light theme's tokens: an icon sits on the browser's chrome, not on our page, so it
 * cannot use the CSS variables.
 */

type Point = readonly [number, number]
type Rgb = readonly [number, number, number]

/** The mark: a 24x24 line path (M, L and A commands, absolute or relative), stroked 2 units wide with round ends. */
export const BRAND_MARK_PATH = 'M4 12a8 8 0 0 1 14-5.3M20 12a8 8 0 0 1-14 5.3M15 3l3.5 3.7L14.5 9M9 21l-3.5-3.7L9.5 15'

const SIZE = 32
const CORNER = 7
/** Where the 24-unit mark sits in the 32-unit square. */
const MARK_OFFSET = 4
const STROKE = 2
const ACCENT: Rgb = [0x22, 0x51, 0xcc]
const CONTRAST: Rgb = [0xff, 0xff, 0xff]

const hex = (rgb: Rgb) => `#${rgb.map((v) => v.toString(16).padStart(2, '0')).join('')}`

/** The icon as SVG (served as image/svg+xml). */
export const FAVICON_SVG = [
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${SIZE} ${SIZE}">`,
  `<rect width="${SIZE}" height="${SIZE}" rx="${CORNER}" fill="${hex(ACCENT)}"/>`,
  `<path transform="translate(${MARK_OFFSET} ${MARK_OFFSET})" d="${BRAND_MARK_PATH}" fill="none" stroke="${hex(CONTRAST)}"`,
  ` stroke-width="${STROKE}" stroke-linecap="round" stroke-linejoin="round"/>`,
  '</svg>',
].join('')

/** Points along an SVG elliptical arc from `from` (the endpoint-to-centre conversion of SVG 1.1, F.6.5). */
function arcPoints(from: Point, args: readonly number[], to: Point): Point[] {
  let [rx, ry] = [Math.abs(args[0]!), Math.abs(args[1]!)]
  const phi = (args[2]! * Math.PI) / 180
  const [large, sweep] = [args[3] !== 0, args[4] !== 0]
  const [cos, sin] = [Math.cos(phi), Math.sin(phi)]
  const [dx, dy] = [(from[0] - to[0]) / 2, (from[1] - to[1]) / 2]
  const [x1, y1] = [cos * dx + sin * dy, -sin * dx + cos * dy]
  const lambda = x1 ** 2 / rx ** 2 + y1 ** 2 / ry ** 2
  if (lambda > 1) [rx, ry] = [rx * Math.sqrt(lambda), ry * Math.sqrt(lambda)]
  const num = rx ** 2 * ry ** 2 - rx ** 2 * y1 ** 2 - ry ** 2 * x1 ** 2
  const coef = (large !== sweep ? 1 : -1) * Math.sqrt(Math.max(0, num / (rx ** 2 * y1 ** 2 + ry ** 2 * x1 ** 2)))
  const [cx1, cy1] = [(coef * rx * y1) / ry, (-coef * ry * x1) / rx]
  const [cx, cy] = [cos * cx1 - sin * cy1 + (from[0] + to[0]) / 2, sin * cx1 + cos * cy1 + (from[1] + to[1]) / 2]
  const start = Math.atan2((y1 - cy1) / ry, (x1 - cx1) / rx)
  let delta = Math.atan2((-y1 - cy1) / ry, (-x1 - cx1) / rx) - start
  if (sweep && delta < 0) delta += 2 * Math.PI
  if (!sweep && delta > 0) delta -= 2 * Math.PI
  const steps = Math.max(4, Math.ceil(Math.abs(delta) / (Math.PI / 32)))
  return Array.from({ length: steps }, (_, k) => {
    const t = start + (delta * (k + 1)) / steps
    const [ex, ey] = [rx * Math.cos(t), ry * Math.sin(t)]
    return [cx + cos * ex - sin * ey, cy + sin * ex + cos * ey] as const
  })
}

/** The path's subpaths as polylines (M, L, A and their relative forms: all the mark uses). */
export function flattenPath(d: string): Point[][] {
  const tokens = d.match(/[a-zA-Z]|-?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?/g) ?? []
  const lines: Point[][] = []
  let at: Point = [0, 0]
  let command = ''
  for (let i = 0; i < tokens.length; ) {
    if (/[a-zA-Z]/.test(tokens[i]!)) command = tokens[i++]!
    const relative = command === command.toLowerCase()
    const take = (n: number) => tokens.slice(i, (i += n)).map(Number)
    const point = (x: number, y: number): Point => (relative ? [at[0] + x, at[1] + y] : [x, y])
    const upper = command.toUpperCase()
    if (upper === 'M') {
      const [x, y] = take(2)
      at = point(x!, y!)
      lines.push([at])
      command = relative ? 'l' : 'L'
    } else if (upper === 'L') {
      const [x, y] = take(2)
      at = point(x!, y!)
      lines.at(-1)!.push(at)
    } else if (upper === 'A') {
      const args = take(7)
      const to = point(args[5]!, args[6]!)
      lines.at(-1)!.push(...arcPoints(at, args, to))
      at = to
    } else {
      throw new Error(`The mark's path uses ${command}, which the icon cannot draw`)
    }
  }
  return lines
}

/** The distance from a point to a segment. */
function distanceToSegment(p: Point, a: Point, b: Point): number {
  const [vx, vy] = [b[0] - a[0], b[1] - a[1]]
  const length = vx ** 2 + vy ** 2
  const t = length === 0 ? 0 : Math.min(1, Math.max(0, ((p[0] - a[0]) * vx + (p[1] - a[1]) * vy) / length))
  return Math.hypot(p[0] - a[0] - t * vx, p[1] - a[1] - t * vy)
}

/** Whether a point is inside the rounded square. */
function inSquare(x: number, y: number): boolean {
  const cx = Math.min(Math.max(x, CORNER), SIZE - CORNER)
  const cy = Math.min(Math.max(y, CORNER), SIZE - CORNER)
  return (x - cx) ** 2 + (y - cy) ** 2 <= CORNER ** 2
}

/** The colour at a point of the 32-unit square, or null outside the icon. */
function colourAt(x: number, y: number, segments: ReadonlyArray<readonly [Point, Point]>): Rgb | null {
  if (!inSquare(x, y)) return null
  const p: Point = [x - MARK_OFFSET, y - MARK_OFFSET]
  return segments.some(([a, b]) => distanceToSegment(p, a, b) <= STROKE / 2) ? CONTRAST : ACCENT
}

/** RGBA pixels, 4x4 samples per pixel. */
function rasterize(): Uint8Array {
  const segments = flattenPath(BRAND_MARK_PATH).flatMap((line) => line.slice(1).map((b, i) => [line[i]!, b] as const))
  const pixels = new Uint8Array(SIZE * SIZE * 4)
  const samples = 4
  for (let py = 0; py < SIZE; py++) {
    for (let px = 0; px < SIZE; px++) {
      const sum = [0, 0, 0, 0]
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const colour = colourAt(px + (sx + 0.5) / samples, py + (sy + 0.5) / samples, segments)
          if (!colour) continue
          sum[0]! += colour[0]
          sum[1]! += colour[1]
          sum[2]! += colour[2]
          sum[3]! += 1
        }
      }
      const covered = sum[3]!
      if (covered === 0) continue
      const at = (py * SIZE + px) * 4
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
