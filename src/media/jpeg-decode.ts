import type { WasmHeap } from './resample-wasm'

/**
 * JPEG decoding with DCT-domain downscaling: libjpeg-turbo's TurboJPEG API (WebAssembly, from
 * @cwasm/jpeg-turbo) decodes straight to M/8 of the full size (a 4000x3000 photo at 3/4 is
 * 3000x2250, 20 MB of RGB instead of 48 MB of full-size RGBA), which is what keeps the variants
 * pipeline inside a Worker's 128 MB. Each decode gets a fresh instance, so its memory goes with it.
 */
export interface JpegHeader {
  width: number
  height: number
  progressive: boolean
  /** Sum over components of h*v / (hmax*vmax): 1.5 for 4:2:0, 3 for 4:4:4. */
  sampleFactor: number
}

/** Reads the SOF marker (without decoding): dimensions, progressive or not, chroma subsampling. */
export function readJpegHeader(bytes: Uint8Array): JpegHeader | null {
  let o = 2
  while (o + 4 <= bytes.length) {
    if (bytes[o] !== 0xff) return null
    const marker = bytes[o + 1]!
    if (marker === 0xff) {
      o += 1
      continue
    }
    const length = (bytes[o + 2]! << 8) | bytes[o + 3]!
    const isSof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc
    if (isSof && o + 10 <= bytes.length) {
      const height = (bytes[o + 5]! << 8) | bytes[o + 6]!
      const width = (bytes[o + 7]! << 8) | bytes[o + 8]!
      const count = bytes[o + 9]!
      const factors: Array<[number, number]> = []
      for (let i = 0; i < count && o + 12 + i * 3 <= bytes.length; i++) {
        const hv = bytes[o + 11 + i * 3]!
        factors.push([hv >> 4 || 1, hv & 15 || 1])
      }
      const hmax = Math.max(1, ...factors.map((f) => f[0]))
      const vmax = Math.max(1, ...factors.map((f) => f[1]))
      const sampleFactor = factors.reduce((n, [h, v]) => n + (h * v) / (hmax * vmax), 0) || 3
      return {
        width,
        height,
        progressive: marker === 0xc2 || marker === 0xc6 || marker === 0xca || marker === 0xce,
        sampleFactor,
      }
    }
    o += 2 + length
  }
  return null
}

/** Bytes of WebAssembly memory a decode at `scale`/8 needs: input, output, and a progressive file's coefficients. */
export function estimateDecodeBytes(header: JpegHeader, inputBytes: number, scale: number): number {
  const out = Math.ceil((header.width * scale) / 8) * Math.ceil((header.height * scale) / 8) * 3
  // A progressive (or multi-scan) JPEG keeps every DCT coefficient of the full image: 2 bytes each.
  const coefficients = header.progressive ? header.width * header.height * header.sampleFactor * 2 : 0
  return inputBytes + out + coefficients + 2 * 1024 * 1024
}

export interface DecodedRgb {
  /** RGB, 3 bytes a pixel, rows top to bottom: a view into the decoder instance's memory, freed with it. */
  data: Uint8Array
  width: number
  height: number
  /** Bytes of WebAssembly memory the decode used (for measurement). */
  memoryBytes: number
  /** The decoder's memory and allocator, where the resampler works on `data` in place. */
  heap: WasmHeap
}

interface TurboJpeg {
  memory: WebAssembly.Memory
  malloc(size: number): number
  free(ptr: number): void
  tjInitDecompress(): number
  tjDecompressHeader3(
    handle: number,
    buf: number,
    size: number,
    w: number,
    h: number,
    subsamp: number,
    colorspace: number,
  ): number
  tjDecompress2(
    handle: number,
    buf: number,
    size: number,
    dst: number,
    width: number,
    pitch: number,
    height: number,
    format: number,
    flags: number,
  ): number
  tjDestroy(handle: number): number
}

const TJPF_RGB = 0
const fail = (what: string) => () => {
  throw new Error(`jpeg-turbo: ${what}`)
}

/** Decodes to `scale`/8 of the full size (scale 1 to 8), as RGB. Throws on a damaged file. */
export function decodeJpegScaled(
  module: WebAssembly.Module,
  bytes: Uint8Array,
  header: JpegHeader,
  scale: number,
): DecodedRgb {
  const instance = new WebAssembly.Instance(module, {
    // libjpeg reports fatal errors through longjmp: the instance is thrown away with the exception.
    env: { setjmp: () => 0, longjmp: fail('damaged JPEG') },
    wasi_snapshot_preview1: {
      environ_sizes_get: () => 0,
      environ_get: fail('environ_get'),
      proc_exit: fail('proc_exit'),
      fd_close: fail('fd_close'),
      fd_seek: fail('fd_seek'),
      fd_write: () => 0,
    },
  })
  const tj = instance.exports as unknown as TurboJpeg
  const width = Math.ceil((header.width * scale) / 8)
  const height = Math.ceil((header.height * scale) / 8)
  const input = tj.malloc(bytes.length)
  new Uint8Array(tj.memory.buffer, input, bytes.length).set(bytes)
  const handle = tj.tjInitDecompress()
  const output = tj.malloc(width * height * 3)
  if (!handle || !input || !output) throw new Error('jpeg-turbo: out of memory')
  const status = tj.tjDecompress2(handle, input, bytes.length, output, width, width * 3, height, TJPF_RGB, 0)
  tj.tjDestroy(handle)
  tj.free(input)
  if (status !== 0) throw new Error('jpeg-turbo: damaged JPEG')
  return {
    data: new Uint8Array(tj.memory.buffer, output, width * height * 3),
    width,
    height,
    memoryBytes: tj.memory.buffer.byteLength,
    heap: { memory: tj.memory, malloc: (n) => tj.malloc(n), free: (p) => tj.free(p) },
  }
}
