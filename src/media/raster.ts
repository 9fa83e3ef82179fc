/**
 * Pixels as the pipeline sees them: a stored raster (RGB or RGBA rows) and the EXIF orientation
 * that says how to display it. A `View` addresses displayed pixels through strides, so rotating or
 * mirroring a photo costs no copy.
 */
export interface Raster {
  data: Uint8Array | Uint8ClampedArray
  width: number
  height: number
  channels: 3 | 4
}

export interface View {
  raster: Raster
  /** Displayed size (orientation applied). */
  width: number
  height: number
  /** Displayed pixel (x, y) is stored pixel `base + x * dx + y * dy`. */
  base: number
  dx: number
  dy: number
  /** Displayed x runs along stored rows' columns (false) or down stored columns (true: orientations 5 to 8). */
  transposed: boolean
}

/** The displayed image of a raster with EXIF `orientation` (1 to 8). */
export function orientedView(raster: Raster, orientation: number): View {
  const W = raster.width
  const H = raster.height
  const last = (H - 1) * W
  const map: Record<number, [number, number, number]> = {
    1: [0, 1, W],
    2: [W - 1, -1, W],
    3: [last + W - 1, -1, -W],
    4: [last, 1, -W],
    5: [0, W, 1],
    6: [last, -W, 1],
    7: [last + W - 1, -W, -1],
    8: [W - 1, W, -1],
  }
  const [base, dx, dy] = map[orientation] ?? map[1]!
  const swapped = orientation >= 5 && orientation <= 8
  return { raster, width: swapped ? H : W, height: swapped ? W : H, base, dx, dy, transposed: swapped }
}

/** Puts an RGBA raster's pixels over white in place (the canvases are JPEG: no transparency). */
export function flattenOnWhite(raster: Raster): void {
  if (raster.channels !== 4) return
  const d = raster.data
  for (let i = 0; i < d.length; i += 4) {
    const a = d[i + 3]!
    if (a === 255) continue
    const k = 255 - a
    d[i] = (d[i]! * a + 255 * k + 127) / 255
    d[i + 1] = (d[i + 1]! * a + 255 * k + 127) / 255
    d[i + 2] = (d[i + 2]! * a + 255 * k + 127) / 255
    d[i + 3] = 255
  }
}

export interface Rect {
  x: number
  y: number
  width: number
  height: number
}
