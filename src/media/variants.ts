import encodeJpeg, { init as initJpegEncoder } from '@jsquash/jpeg/encode.js'
import decodePng, { init as initPngDecoder } from '@jsquash/png/decode.js'
import { JPG } from 'image-size/types/jpg'
import { PNG } from 'image-size/types/png'
import type { CodecModules } from './codecs'
import {
  containPlacement,
  coverBox,
  decodeEighths,
  neededScale,
  type CropMode,
  type Fit,
  type Placement,
} from './geometry'
import { decodeJpegScaled, estimateDecodeBytes, readJpegHeader } from './jpeg-decode'
import { flattenOnWhite, orientedView, type Raster, type View } from './raster'
import { boxDownscale, resampleInto } from './resample'
import { wasmResampler } from './resample-wasm'
import { analysisImage, smartFocus, type RgbaImage } from './smart-crop'

/**
 * The variants pipeline: one source image to several exact canvases, on Workers and Node alike.
 * Memory, not time, is what it is designed around (a Worker has 128 MB): a JPEG is decoded once,
 * straight to the smallest M/8 scale the largest canvas needs; every canvas is resampled from
 * that (Lanczos-3 in WebAssembly SIMD, inside the decoder's memory), then they are encoded one at a
 * time; smart crop looks at a 256-pixel copy.
 */
export const VARIANT_LIMITS = {
  /** WebAssembly memory one JPEG decode may use (input + scaled output + a progressive file's coefficients). */
  jpegDecodeBudgetBytes: 72 * 1024 * 1024,
  /** PNG cannot be decoded at a reduced scale: its full RGBA frame is 4 bytes a pixel. */
  pngMaxPixels: 6_000_000,
  /** Largest source file read at all: the whole file is in memory while it decodes (a 12 MP JPEG is 2-10 MB). */
  maxSourceBytes: 40_000_000,
  jpegQuality: 82,
} as const

export class VariantSourceError extends Error {
  override readonly name = 'VariantSourceError'
}

export interface CanvasSize {
  width: number
  height: number
}

export interface RenderedCanvas extends CanvasSize {
  /** JPEG. */
  bytes: Uint8Array
}

export interface RenderStats {
  /** The source was decoded at `decodeEighths`/8 of its size, to `decodedWidth` x `decodedHeight`. */
  decodeEighths: number
  decodedWidth: number
  decodedHeight: number
  decoderMemoryBytes: number
}

/** The canvases' resampler and smart crop's downscaler: WebAssembly for a JPEG, JavaScript for a PNG. */
interface Kernels {
  resampleInto: typeof resampleInto
  boxDownscale: typeof boxDownscale
}
const JS_KERNELS: Kernels = { resampleInto, boxDownscale }

function jpegOrientation(bytes: Uint8Array): number {
  try {
    const o = JPG.calculate(bytes).orientation
    return o && o >= 1 && o <= 8 ? o : 1
  } catch {
    return 1
  }
}

async function decodeSource(
  modules: CodecModules,
  bytes: Uint8Array,
  mimeType: string,
  canvases: CanvasSize[],
  fit: Fit,
): Promise<{ view: View; stats: RenderStats; kernels: Kernels }> {
  if (mimeType === 'image/jpeg') {
    const header = readJpegHeader(bytes)
    if (!header) throw new VariantSourceError('The source JPEG is damaged: it has no frame header.')
    const orientation = jpegOrientation(bytes)
    const [w, h] = orientation >= 5 ? [header.height, header.width] : [header.width, header.height]
    const eighths = decodeEighths(Math.max(...canvases.map((c) => neededScale(w, h, c.width, c.height, fit))))
    const estimate = estimateDecodeBytes(header, bytes.length, eighths)
    if (estimate > VARIANT_LIMITS.jpegDecodeBudgetBytes) {
      const mp = ((header.width * header.height) / 1e6).toFixed(1)
      throw new VariantSourceError(
        `The source is too large to cut variants from: a ${mp} MP ${header.progressive ? 'progressive ' : ''}JPEG needs about ${Math.round(estimate / 1048576)} MB to decode; the limit is ${VARIANT_LIMITS.jpegDecodeBudgetBytes / 1048576} MB. Baseline JPEGs up to about 24 MP (progressive 4:2:0 up to about 12 MP) fit.`,
      )
    }
    let decoded
    try {
      decoded = decodeJpegScaled(modules.jpegTurbo, bytes, header, eighths)
    } catch {
      throw new VariantSourceError('The source JPEG could not be decoded; it may be damaged.')
    }
    const raster: Raster = { data: decoded.data, width: decoded.width, height: decoded.height, channels: 3 }
    return {
      view: orientedView(raster, orientation),
      // Lanczos in WebAssembly, inside the decoder's memory where the pixels are.
      kernels: modules.resampler ? wasmResampler(modules.resampler, decoded.heap) : JS_KERNELS,
      stats: {
        decodeEighths: eighths,
        decodedWidth: decoded.width,
        decodedHeight: decoded.height,
        decoderMemoryBytes: decoded.memoryBytes,
      },
    }
  }
  if (mimeType === 'image/png') {
    let size: { width: number; height: number }
    try {
      size = PNG.calculate(bytes) as { width: number; height: number }
    } catch {
      throw new VariantSourceError('The source PNG could not be read; it may be damaged.')
    }
    if (size.width * size.height > VARIANT_LIMITS.pngMaxPixels) {
      throw new VariantSourceError(
        `The source PNG is ${size.width}x${size.height}; variants are cut from PNGs of at most ${VARIANT_LIMITS.pngMaxPixels / 1e6} MP (use a JPEG for larger photos).`,
      )
    }
    await initPngDecoder(modules.pngDecoder)
    let image: Awaited<ReturnType<typeof decodePng>>
    try {
      image = await decodePng(bytes.slice().buffer)
    } catch {
      throw new VariantSourceError('The source PNG could not be decoded; it may be damaged.')
    }
    const raster: Raster = { data: image.data, width: image.width, height: image.height, channels: 4 }
    flattenOnWhite(raster)
    return {
      view: orientedView(raster, 1),
      // A PNG's frame is in JavaScript (at most 6 MP): the JavaScript kernel, rather than a second copy.
      kernels: JS_KERNELS,
      stats: { decodeEighths: 8, decodedWidth: image.width, decodedHeight: image.height, decoderMemoryBytes: 0 },
    }
  }
  throw new VariantSourceError(`Variants are cut from JPEG or PNG images; this one is ${mimeType}.`)
}

async function placement(
  view: View,
  small: RgbaImage | null,
  canvas: CanvasSize,
  fit: Fit,
  crop: CropMode,
): Promise<Placement> {
  const full = { x: 0, y: 0, width: canvas.width, height: canvas.height }
  if (fit === 'contain') return containPlacement(view.width, view.height, canvas.width, canvas.height)
  const focus =
    crop === 'smart' && small
      ? await smartFocus(view, small, canvas.width, canvas.height)
      : { x: view.width / 2, y: view.height / 2 }
  return { crop: coverBox(view.width, view.height, canvas.width, canvas.height, focus.x, focus.y), target: full }
}

/**
 * Renders each canvas (exactly its size) as a JPEG; `contain` pads with white. Two phases, so the
 * decoder's memory and the encoder's are not needed at once: every canvas is resampled from the
 * decoded image first (RGBA, 21 MB for all four), then the decoded image is let go and the canvases
 * are encoded one by one, each dropped once encoded.
 */
export async function renderVariants(
  modules: CodecModules,
  source: { bytes: Uint8Array; mimeType: string },
  canvases: CanvasSize[],
  fit: Fit,
  crop: CropMode,
  /** Called after each step (`decoded`, `resampled`, `encoded`): the benchmark measures memory there. */
  onStep?: (step: string) => void,
): Promise<{ outputs: RenderedCanvas[]; stats: RenderStats }> {
  const { pixels, stats } = await resampleAll(modules, source, canvases, fit, crop, onStep)
  // A fresh encoder instance per job: its memory grows to one canvas and goes with the job.
  await initJpegEncoder(modules.mozjpegEncoder)
  const outputs: RenderedCanvas[] = []
  for (const [i, canvas] of canvases.entries()) {
    const data = pixels[i]!
    pixels[i] = null
    const encoded = await encodeJpeg(
      { data, width: canvas.width, height: canvas.height, colorSpace: 'srgb' } as ImageData,
      { quality: VARIANT_LIMITS.jpegQuality, progressive: false },
    )
    outputs.push({ width: canvas.width, height: canvas.height, bytes: new Uint8Array(encoded) })
    onStep?.('encoded')
  }
  return { outputs, stats }
}

/** Phase one: decode, then every canvas's pixels. The decoded image is unreachable once this returns. */
async function resampleAll(
  modules: CodecModules,
  source: { bytes: Uint8Array; mimeType: string },
  canvases: CanvasSize[],
  fit: Fit,
  crop: CropMode,
  onStep?: (step: string) => void,
): Promise<{ pixels: Array<Uint8ClampedArray | null>; stats: RenderStats }> {
  const { view, stats, kernels } = await decodeSource(modules, source.bytes, source.mimeType, canvases, fit)
  onStep?.('decoded')
  const small = fit === 'cover' && crop === 'smart' ? analysisImage(view, kernels.boxDownscale) : null
  const pixels: Array<Uint8ClampedArray | null> = []
  for (const canvas of canvases) {
    const place = await placement(view, small, canvas, fit, crop)
    const data = new Uint8ClampedArray(canvas.width * canvas.height * 4).fill(255)
    kernels.resampleInto(view, place.crop, data, canvas.width, place.target)
    pixels.push(data)
    onStep?.('resampled')
  }
  return { pixels, stats }
}
