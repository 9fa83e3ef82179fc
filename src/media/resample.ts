import type { Rect, View } from './raster'

/** Lanczos-3: sharp's default kernel, so both pipelines resample alike. */
const SUPPORT = 3
function lanczos(x: number): number {
  if (x === 0) return 1
  if (x <= -SUPPORT || x >= SUPPORT) return 0
  const px = Math.PI * x
  return (SUPPORT * Math.sin(px) * Math.sin(px / SUPPORT)) / (px * px)
}

export interface Taps {
  /** First source index of each output sample. */
  start: Int32Array
  count: Int32Array
  /** `maxTaps` weights per output sample, normalised to sum 1. */
  weights: Float32Array
  maxTaps: number
}

/** Weights of every output sample over `[offset, offset + length)` of a source axis of `limit` pixels. */
export function taps(offset: number, length: number, out: number, limit: number): Taps {
  const scale = length / out
  const filterScale = Math.max(1, scale)
  const support = SUPPORT * filterScale
  const maxTaps = Math.ceil(support) * 2 + 1
  const start = new Int32Array(out)
  const count = new Int32Array(out)
  const weights = new Float32Array(out * maxTaps)
  for (let i = 0; i < out; i++) {
    const center = offset + (i + 0.5) * scale
    const lo = Math.max(0, Math.floor(center - support))
    const hi = Math.min(limit, Math.ceil(center + support), lo + maxTaps)
    let sum = 0
    for (let k = lo; k < hi; k++) {
      const w = lanczos((k + 0.5 - center) / filterScale)
      weights[i * maxTaps + k - lo] = w
      sum += w
    }
    for (let k = 0; k < hi - lo; k++) weights[i * maxTaps + k]! /= sum || 1
    start[i] = lo
    count[i] = hi - lo
  }
  return { start, count, weights, maxTaps }
}

/**
 * Resamples the `crop` of a view (displayed coordinates, fractions allowed) to `target` inside an
 * RGBA canvas of `canvasWidth` columns, in two separable passes through a 3-channel intermediate
 * of (rows used x target width) bytes. Alpha is written opaque.
 */
export function resampleInto(
  view: View,
  crop: Rect,
  canvas: Uint8ClampedArray,
  canvasWidth: number,
  target: Rect,
): void {
  const { raster, base, dx, dy } = view
  const ch = raster.channels
  const src = raster.data
  const tw = target.width
  const h = taps(crop.x, crop.width, tw, view.width)
  const v = taps(crop.y, crop.height, target.height, view.height)
  // Byte offset of every horizontal tap within a displayed row (dx is negative for mirrored views).
  const hOffset = new Int32Array(tw * h.maxTaps)
  for (let i = 0; i < tw; i++)
    for (let k = 0; k < h.count[i]!; k++) hOffset[i * h.maxTaps + k] = (h.start[i]! + k) * dx * ch
  const rowFirst = v.start[0]!
  const rows = v.start[target.height - 1]! + v.count[target.height - 1]! - rowFirst
  const mid = new Uint8ClampedArray(rows * tw * 3)
  for (let r = 0; r < rows; r++) {
    const rowByte = (base + (rowFirst + r) * dy) * ch
    let o = r * tw * 3
    for (let i = 0; i < tw; i++) {
      const n = h.count[i]!
      const w0 = i * h.maxTaps
      let red = 0
      let green = 0
      let blue = 0
      for (let k = 0; k < n; k++) {
        const w = h.weights[w0 + k]!
        const p = rowByte + hOffset[w0 + k]!
        red += src[p]! * w
        green += src[p + 1]! * w
        blue += src[p + 2]! * w
      }
      mid[o++] = red
      mid[o++] = green
      mid[o++] = blue
    }
  }
  const rowLength = tw * 3
  const acc = new Float32Array(rowLength)
  for (let j = 0; j < target.height; j++) {
    acc.fill(0)
    const first = v.start[j]! - rowFirst
    for (let k = 0; k < v.count[j]!; k++) {
      const w = v.weights[j * v.maxTaps + k]!
      const from = (first + k) * rowLength
      for (let x = 0; x < rowLength; x++) acc[x]! += mid[from + x]! * w
    }
    let o = ((target.y + j) * canvasWidth + target.x) * 4
    for (let x = 0; x < rowLength; x += 3) {
      canvas[o] = acc[x]!
      canvas[o + 1] = acc[x + 1]!
      canvas[o + 2] = acc[x + 2]!
      canvas[o + 3] = 255
      o += 4
    }
  }
}

/**
 * A much smaller copy by plain area averaging (each output pixel is the mean of its source block):
 * one pass over the source, for smart-crop analysis where a wide kernel would cost seconds.
 */
export function boxDownscale(view: View, width: number, height: number): Uint8ClampedArray {
  const { raster, base, dx, dy } = view
  const ch = raster.channels
  const src = raster.data
  const out = new Uint8ClampedArray(width * height * 4)
  const sums = new Float64Array(width * 3)
  const colOf = new Int32Array(view.width)
  for (let x = 0; x < view.width; x++) colOf[x] = Math.min(width - 1, Math.floor((x * width) / view.width))
  const perCol = new Int32Array(width)
  for (let x = 0; x < view.width; x++) perCol[colOf[x]!]!++
  for (let oy = 0; oy < height; oy++) {
    const y0 = Math.floor((oy * view.height) / height)
    const y1 = Math.max(y0 + 1, Math.floor(((oy + 1) * view.height) / height))
    sums.fill(0)
    for (let y = y0; y < y1; y++) {
      const rowByte = (base + y * dy) * ch
      const step = dx * ch
      for (let x = 0, p = rowByte; x < view.width; x++, p += step) {
        const c = colOf[x]! * 3
        sums[c]! += src[p]!
        sums[c + 1]! += src[p + 1]!
        sums[c + 2]! += src[p + 2]!
      }
    }
    for (let ox = 0; ox < width; ox++) {
      const n = perCol[ox]! * (y1 - y0) || 1
      const o = (oy * width + ox) * 4
      out[o] = sums[ox * 3]! / n
      out[o + 1] = sums[ox * 3 + 1]! / n
      out[o + 2] = sums[ox * 3 + 2]! / n
      out[o + 3] = 255
    }
  }
  return out
}
