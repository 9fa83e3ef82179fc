import type { Rect, View } from './raster'
import { type Taps, taps } from './resample'

/**
 * A WebAssembly memory and its allocator: the JPEG decoder's own (its malloc and free). The
 * resampler works inside it, so the decoded pixels are never copied.
 */
export interface WasmHeap {
  memory: WebAssembly.Memory
  malloc(size: number): number
  free(ptr: number): void
}

interface ResampleExports {
  resample(
    ch: number,
    src: number,
    stride: number,
    cols: number,
    vStart: number,
    vCount: number,
    vW: number,
    vMax: number,
    outH: number,
    hStart: number,
    hCount: number,
    hW: number,
    hMax: number,
    outW: number,
    mid: number,
    out: number,
    stepU: number,
    stepV: number,
    firstRow: number,
  ): void
}

/** Output rows per call into WebAssembly (see `resampleInto`). */
const SLICE_ROWS = 16

type TapsOf = (offset: number, length: number, out: number, limit: number) => Taps

/** Area averaging: each output sample is the mean of the source it covers (partly covered pixels in part). */
function boxTaps(offset: number, length: number, out: number, limit: number): Taps {
  const scale = length / out
  const maxTaps = Math.ceil(scale) + 2
  const start = new Int32Array(out)
  const count = new Int32Array(out)
  const weights = new Float32Array(out * maxTaps)
  for (let i = 0; i < out; i++) {
    const lo = offset + i * scale
    const hi = Math.min(limit, lo + scale)
    const first = Math.max(0, Math.floor(lo))
    const last = Math.min(limit, Math.ceil(hi), first + maxTaps)
    let sum = 0
    for (let k = first; k < last; k++) sum += weights[i * maxTaps + k - first] = Math.min(hi, k + 1) - Math.max(lo, k)
    for (let k = 0; k < last - first; k++) weights[i * maxTaps + k]! /= sum || 1
    start[i] = first
    count[i] = last - first
  }
  return { start, count, weights, maxTaps }
}

/** 14-bit fixed-point taps (each sample's weights summing to exactly 16384), relative to the first column used. */
function fixedTaps(tapsOf: TapsOf, offset: number, length: number, out: number, limit: number) {
  const t = tapsOf(offset, length, out, limit)
  const first = t.start[0]!
  const span = t.start[out - 1]! + t.count[out - 1]! - first
  const weights = new Int16Array(t.weights.length)
  for (let i = 0; i < out; i++) {
    const row = i * t.maxTaps
    let sum = 0
    let peak = row
    for (let k = 0; k < t.count[i]!; k++) {
      const w = Math.round(t.weights[row + k]! * 16384)
      weights[row + k] = w
      sum += w
      if (w > weights[peak]!) peak = row + k
    }
    weights[peak]! += 16384 - sum
    t.start[i]! -= first
  }
  return { first, span, start: t.start, count: t.count, weights, maxTaps: t.maxTaps }
}

/** Lanczos-3 in WebAssembly (SIMD): the same kernel as `resampleInto` in resample.ts, on a raster inside `heap`. */
export function wasmResampler(module: WebAssembly.Module, heap: WasmHeap) {
  const { resample } = new WebAssembly.Instance(module, { env: { memory: heap.memory } })
    .exports as unknown as ResampleExports
  /**
   * Resamples the `crop` of `view` (whose raster's data lies in the heap) to `target` inside an
   * RGBA canvas of `canvasWidth` columns. It works in stored orientation and writes each pixel
   * where the view displays it, so rotation and mirroring cost nothing.
   */
  function run(
    tapsOf: TapsOf,
    view: View,
    crop: Rect,
    canvas: Uint8ClampedArray,
    canvasWidth: number,
    target: Rect,
  ): void {
    const { raster, dx, dy, transposed } = view
    const W = raster.width
    const H = raster.height
    const tw = target.width
    const th = target.height
    // Stored axes: u along a stored row, v down a stored column.
    const [uOffset, uLength, uOut, vOffset, vLength, vOut] = transposed
      ? [
          dy > 0 ? crop.y : W - crop.y - crop.height,
          crop.height,
          th,
          dx > 0 ? crop.x : H - crop.x - crop.width,
          crop.width,
          tw,
        ]
      : [
          dx > 0 ? crop.x : W - crop.x - crop.width,
          crop.width,
          tw,
          dy > 0 ? crop.y : H - crop.y - crop.height,
          crop.height,
          th,
        ]
    const h = fixedTaps(tapsOf, uOffset, uLength, uOut, W)
    const v = fixedTaps(tapsOf, vOffset, vLength, vOut, H)
    for (let i = 0; i < vOut; i++) v.start[i]! += v.first
    // Where stored output (u, v) goes in the target-sized RGBA buffer.
    const xStep = (transposed ? dx / W : dx) > 0 ? 4 : -4
    const yStep = (transposed ? dy : dy / W) > 0 ? tw * 4 : -tw * 4
    const base = (xStep > 0 ? 0 : (tw - 1) * 4) + (yStep > 0 ? 0 : (th - 1) * tw * 4)
    const [stepU, stepV] = transposed ? [yStep, xStep] : [xStep, yStep]
    const ch = raster.channels
    const dataPtr = raster.data.byteOffset
    const dataLength = raster.data.length
    const [vs, vc, vw, hs, hc, hw, mid, out] = [
      v.start.byteLength,
      v.count.byteLength,
      v.weights.byteLength,
      h.start.byteLength,
      h.count.byteLength,
      h.weights.byteLength,
      (h.span * ch + 8) * 2,
      tw * th * 4,
    ].map((n) => heap.malloc(n))
    try {
      if (![vs, vc, vw, hs, hc, hw, mid, out].every(Boolean)) throw new Error('resample: out of memory')
      // Views are taken after every malloc: a grown memory detaches the earlier buffer.
      const buffer = heap.memory.buffer
      new Int32Array(buffer, vs, vOut).set(v.start)
      new Int32Array(buffer, vc, vOut).set(v.count)
      new Int16Array(buffer, vw, v.weights.length).set(v.weights)
      new Int32Array(buffer, hs, uOut).set(h.start)
      new Int32Array(buffer, hc, uOut).set(h.count)
      new Int16Array(buffer, hw, h.weights.length).set(h.weights)
      // A grown memory has detached the raster's view too: it is re-taken for the next canvas.
      raster.data = new Uint8Array(buffer, dataPtr, dataLength)
      const src = dataPtr + h.first * ch
      // Slices of rows: V8 and workerd start WebAssembly on a baseline compiler and switch a hot function to
      // optimised code at its next call, so one call per canvas would run its whole canvas on the slow code.
      for (let row = 0; row < vOut; row += SLICE_ROWS) {
        const rows = Math.min(vOut, row + SLICE_ROWS)
        resample(
          ch,
          src,
          W * ch,
          h.span,
          vs!,
          vc!,
          vw!,
          v.maxTaps,
          rows,
          hs!,
          hc!,
          hw!,
          h.maxTaps,
          uOut,
          mid!,
          out! + base,
          stepU,
          stepV,
          row,
        )
      }
      const pixels = new Uint8Array(heap.memory.buffer, out, tw * th * 4)
      if (target.x === 0 && tw === canvasWidth) canvas.set(pixels, target.y * canvasWidth * 4)
      else
        for (let y = 0; y < th; y++)
          canvas.set(pixels.subarray(y * tw * 4, (y + 1) * tw * 4), ((target.y + y) * canvasWidth + target.x) * 4)
    } finally {
      for (const ptr of [vs, vc, vw, hs, hc, hw, mid, out]) if (ptr) heap.free(ptr)
    }
  }
  return {
    /** Lanczos-3, the canvases' kernel (see `run`). */
    resampleInto: (view: View, crop: Rect, canvas: Uint8ClampedArray, canvasWidth: number, target: Rect) =>
      run(taps, view, crop, canvas, canvasWidth, target),
    /** The whole view, area-averaged to `width` x `height` RGBA: smart crop's small copy. */
    boxDownscale(view: View, width: number, height: number): Uint8ClampedArray {
      const canvas = new Uint8ClampedArray(width * height * 4)
      const whole = { x: 0, y: 0, width: view.width, height: view.height }
      run(boxTaps, view, whole, canvas, width, { x: 0, y: 0, width, height })
      return canvas
    },
  }
}
