import type { Rect } from './raster'

export type Fit = 'cover' | 'contain'
export type CropMode = 'smart' | 'centre'

/** Where the image goes on a `tw` x `th` canvas: which part of it (`crop`), and where on the canvas (`target`). */
export interface Placement {
  crop: Rect
  target: Rect
}

/** The largest box of the canvas's aspect inside a `w` x `h` image, centred on (cx, cy) as far as the edges allow. */
export function coverBox(w: number, h: number, tw: number, th: number, cx = w / 2, cy = h / 2): Rect {
  const aspect = tw / th
  const width = w / h > aspect ? h * aspect : w
  const height = width / aspect
  const x = Math.min(Math.max(cx - width / 2, 0), w - width)
  const y = Math.min(Math.max(cy - height / 2, 0), h - height)
  return { x, y, width, height }
}

/** `contain`: the whole image, as large as fits, centred; the rest of the canvas is padding. */
export function containPlacement(w: number, h: number, tw: number, th: number): Placement {
  const scale = Math.min(tw / w, th / h)
  const width = Math.max(1, Math.min(tw, Math.round(w * scale)))
  const height = Math.max(1, Math.min(th, Math.round(h * scale)))
  return {
    crop: { x: 0, y: 0, width: w, height: h },
    target: { x: Math.floor((tw - width) / 2), y: Math.floor((th - height) / 2), width, height },
  }
}

/** The scale (of the full image) a canvas needs so that no pixel is upscaled. */
export function neededScale(w: number, h: number, tw: number, th: number, fit: Fit): number {
  return fit === 'cover' ? Math.max(tw / w, th / h) : Math.min(tw / w, th / h)
}

/** The smallest M/8 decode scale (1 to 8) that is at least `scale`. */
export function decodeEighths(scale: number): number {
  return Math.min(8, Math.max(1, Math.ceil(scale * 8 - 1e-9)))
}
