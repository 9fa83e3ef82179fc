import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import type { CodecModules, ImageCodecs } from './codecs'

const FILES: Record<keyof CodecModules, string> = {
  jpegTurbo: '@cwasm/jpeg-turbo/jpeg-turbo.wasm',
  mozjpegEncoder: '@jsquash/jpeg/codec/enc/mozjpeg_enc.wasm',
  pngDecoder: '@jsquash/png/codec/pkg/squoosh_png_bg.wasm',
  resampler: './wasm/resample.wasm',
}

/**
 * Node's codecs, compiled from node_modules on first use. The compiled modules are immutable and
 * shared by every job of the process; the instances (and their memory) are per job.
 */
export function nodeImageCodecs(): ImageCodecs {
  let compiled: Promise<CodecModules> | null = null
  const require = createRequire(import.meta.url)
  const compile = async (spec: string) => WebAssembly.compile(await readFile(require.resolve(spec)))
  return {
    load() {
      compiled ??= (async () => {
        const [jpegTurbo, mozjpegEncoder, pngDecoder, resampler] = await Promise.all([
          compile(FILES.jpegTurbo),
          compile(FILES.mozjpegEncoder),
          compile(FILES.pngDecoder),
          compile(FILES.resampler),
        ])
        return { jpegTurbo, mozjpegEncoder, pngDecoder, resampler }
      })()
      compiled.catch(() => (compiled = null))
      return compiled
    },
  }
}
