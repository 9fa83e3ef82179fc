import jpegTurbo from '@cwasm/jpeg-turbo/jpeg-turbo.wasm'
import mozjpegEncoder from '@jsquash/jpeg/codec/enc/mozjpeg_enc.wasm'
// This one ships its own (wasm-bindgen) typings, so it is imported as a namespace and its default taken.
import * as pngWasm from '@jsquash/png/codec/pkg/squoosh_png_bg.wasm'
import type { ImageCodecs } from './codecs'
import resampler from './wasm/resample.wasm'

/** The Worker's codecs: wrangler bundles each `.wasm` import as a compiled module next to the script. */
export function workerImageCodecs(): ImageCodecs {
  const modules = {
    jpegTurbo,
    mozjpegEncoder,
    pngDecoder: (pngWasm as unknown as { default: WebAssembly.Module }).default,
    resampler,
  }
  return { load: async () => modules }
}
