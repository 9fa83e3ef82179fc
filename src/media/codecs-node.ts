import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { nearestAbove } from '../lib/nearest-above'
import type { CodecModules, ImageCodecs } from './codecs'

/** The packages' WebAssembly, resolved as their modules are (from node_modules). */
const PACKAGE_FILES = {
  jpegTurbo: '@cwasm/jpeg-turbo/jpeg-turbo.wasm',
  mozjpegEncoder: '@jsquash/jpeg/codec/enc/mozjpeg_enc.wasm',
  pngDecoder: '@jsquash/png/codec/pkg/squoosh_png_bg.wasm',
} satisfies Partial<Record<keyof CodecModules, string>>

/**
 * Our own kernel (src/media/wasm/resample.wasm): the nearest `wasm/resample.wasm` above this module,
 * which is src/media/wasm/ from the sources and the copy bin/start-bundle.js puts in the bundle's
 * folder when `npm start` runs the bundle (whose modules are not in src/media/).
 */
function resamplerFile(): string {
  const file = nearestAbove(import.meta.url, join('wasm', 'resample.wasm'))
  if (!file) throw new Error('wasm/resample.wasm is missing beside the media modules')
  return file
}

/**
 * Node's codecs, compiled from their files on first use. The compiled modules are immutable and
 * shared by every job of the process; the instances (and their memory) are per job.
 */
export function nodeImageCodecs(): ImageCodecs {
  let compiled: Promise<CodecModules> | null = null
  const require = createRequire(import.meta.url)
  const compile = async (file: string) => WebAssembly.compile(await readFile(file))
  return {
    load() {
      compiled ??= (async () => {
        const [jpegTurbo, mozjpegEncoder, pngDecoder, resampler] = await Promise.all([
          compile(require.resolve(PACKAGE_FILES.jpegTurbo)),
          compile(require.resolve(PACKAGE_FILES.mozjpegEncoder)),
          compile(require.resolve(PACKAGE_FILES.pngDecoder)),
          compile(resamplerFile()),
        ])
        return { jpegTurbo, mozjpegEncoder, pngDecoder, resampler }
      })()
      compiled.catch(() => (compiled = null))
      return compiled
    },
  }
}
