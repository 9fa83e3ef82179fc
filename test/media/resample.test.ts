import { describe, expect, it } from 'vitest'
import { nodeImageCodecs } from '../../src/media/codecs-node'
import { containPlacement, coverBox } from '../../src/media/geometry'
import { decodeJpegScaled, readJpegHeader } from '../../src/media/jpeg-decode'
import { orientedView, type Rect, type View } from '../../src/media/raster'
import { boxDownscale, taps } from '../../src/media/resample'
import { wasmResampler } from '../../src/media/resample-wasm'
import { jpeg, paint } from '../support/media'

/**
 * The exact result the kernel approximates: the same Lanczos weights applied in double precision to
 * every displayed pixel of each output's window, rounded once at the end.
 */
function reference(view: View, crop: Rect, canvas: Uint8ClampedArray, canvasWidth: number, target: Rect): void {
  const h = taps(crop.x, crop.width, target.width, view.width)
  const v = taps(crop.y, crop.height, target.height, view.height)
  const { raster, base, dx, dy } = view
  for (let j = 0; j < target.height; j++)
    for (let i = 0; i < target.width; i++) {
      const sum = [0, 0, 0]
      for (let a = 0; a < v.count[j]!; a++)
        for (let b = 0; b < h.count[i]!; b++) {
          const w = v.weights[j * v.maxTaps + a]! * h.weights[i * h.maxTaps + b]!
          const p = (base + (h.start[i]! + b) * dx + (v.start[j]! + a) * dy) * raster.channels
          for (let c = 0; c < 3; c++) sum[c]! += raster.data[p + c]! * w
        }
      canvas.set([...sum, 255], ((target.y + j) * canvasWidth + target.x + i) * 4)
    }
}

/** Largest difference of any channel between two canvases, and where. */
function largestDifference(a: Uint8ClampedArray, b: Uint8ClampedArray): { diff: number; at: number } {
  let worst = { diff: 0, at: -1 }
  for (let i = 0; i < a.length; i++) {
    const diff = Math.abs(a[i]! - b[i]!)
    if (diff > worst.diff) worst = { diff, at: i }
  }
  return worst
}

/** A decoded 640x400 photo (not symmetric in any direction: a ramp, a hard edge, a block in one corner) and the kernel. */
async function decodedPhoto() {
  const modules = await nodeImageCodecs().load()
  const source = await jpeg(
    paint(640, 400, (x, y) => {
      if (x < 90 && y < 60) return [250, 20, 20]
      return [(x * 255) / 640, x > 400 ? 230 : 40, (y * 255) / 400]
    }),
    95,
  )
  const decoded = decodeJpegScaled(modules.jpegTurbo, source, readJpegHeader(source)!, 8)
  const raster = { data: decoded.data, width: decoded.width, height: decoded.height, channels: 3 as const }
  return { raster, resampler: wasmResampler(modules.resampler!, decoded.heap) }
}

describe('Lanczos resampling in WebAssembly', () => {
  it('gives the exact Lanczos result (within rounding) for every EXIF orientation, cover and contain', async () => {
    const { raster, resampler } = await decodedPhoto()
    for (let orientation = 1; orientation <= 8; orientation++) {
      const view = orientedView(raster, orientation)
      const cases: Array<{ w: number; h: number; crop: Rect; target: Rect }> = [
        // Off-centre cover crops, downscaled; a fractional crop, upscaled (ringing at the block's edges).
        { w: 300, h: 500, crop: coverBox(view.width, view.height, 300, 500, view.width * 0.7, view.height * 0.3) },
        { w: 97, h: 61, crop: coverBox(view.width, view.height, 97, 61, view.width * 0.2, view.height * 0.8) },
        { w: 450, h: 300, crop: { x: 10.5, y: 20.25, width: 300, height: 200 } },
      ].map((c) => ({ ...c, target: { x: 0, y: 0, width: c.w, height: c.h } }))
      const contain = containPlacement(view.width, view.height, 256, 256)
      cases.push({ w: 256, h: 256, crop: contain.crop, target: contain.target })
      for (const { w, h, crop, target } of cases) {
        const expected = new Uint8ClampedArray(w * h * 4).fill(255)
        const actual = new Uint8ClampedArray(w * h * 4).fill(255)
        reference(view, crop, expected, w, target)
        resampler.resampleInto(view, crop, actual, w, target)
        const worst = largestDifference(expected, actual)
        const where = `orientation ${orientation}, ${w}x${h}, pixel ${Math.floor(worst.at / 4)}`
        expect(worst.diff, where).toBeLessThanOrEqual(1)
      }
    }
  })

  it('area-averages the small copy for smart crop as the JavaScript one does, in every orientation', async () => {
    const { raster, resampler } = await decodedPhoto()
    for (let orientation = 1; orientation <= 8; orientation++) {
      const view = orientedView(raster, orientation)
      // A factor of 4 each way: both average the same 4x4 blocks.
      const [w, h] = [view.width / 4, view.height / 4]
      const worst = largestDifference(boxDownscale(view, w, h), resampler.boxDownscale(view, w, h))
      expect(worst.diff, `orientation ${orientation}, pixel ${Math.floor(worst.at / 4)}`).toBeLessThanOrEqual(1)
    }
  })
})
