/// <reference types="@cloudflare/workers-types" />
import decodeJpeg, { init as initJpegDecode } from '@jsquash/jpeg/decode.js'
import encodeJpeg, { init as initJpegEncode } from '@jsquash/jpeg/encode.js'
import mozjpegDecoder from '@jsquash/jpeg/codec/dec/mozjpeg_dec.wasm'
import { describe, expect, it } from 'vitest'
import { workerImageCodecs } from '../../src/media/codecs-worker'
import { renderVariants } from '../../src/media/variants'
import { CANVASES } from '../../src/domain/rules/index'

/**
 * The variants pipeline inside workerd, with the WebAssembly modules the Worker bundle imports
 * (wrangler's CompiledWasm rule): JPEG decode at a reduced scale, smart crop, resample, encode.
 * (Local workerd does not enforce the 128 MB limit; the benchmark measures memory on Node.)
 */
describe('variants pipeline in workerd', () => {
  it('cuts the four canvases at their exact sizes from a 3200x2400 JPEG, decoded at 7/8', async () => {
    const modules = await workerImageCodecs().load()
    await initJpegEncode(modules.mozjpegEncoder)
    const width = 3200
    const height = 2400
    const data = new Uint8ClampedArray(width * height * 4)
    for (let i = 0; i < width * height; i++) {
      const x = i % width
      const y = (i / width) | 0
      const subject = (x - 2500) ** 2 / 400 ** 2 + (y - 1200) ** 2 / 500 ** 2 < 1
      data.set(subject ? [226, 170, 136, 255] : [60 + (x % 40), 90, 120 + (y % 30), 255], i * 4)
    }
    const source = new Uint8Array(await encodeJpeg({ data, width, height } as ImageData, { quality: 85 }))
    const canvases = Object.values(CANVASES)
    const { outputs, stats } = await renderVariants(
      modules,
      { bytes: source, mimeType: 'image/jpeg' },
      canvases,
      'cover',
      'smart',
    )
    expect(navigator.userAgent).toBe('Cloudflare-Workers')
    expect(stats.decodeEighths).toBe(7)
    await initJpegDecode(mozjpegDecoder)
    for (const [i, out] of outputs.entries()) {
      const decoded = await decodeJpeg(out.bytes.slice().buffer)
      expect([decoded.width, decoded.height]).toEqual([canvases[i]!.width, canvases[i]!.height])
    }
  })
})
