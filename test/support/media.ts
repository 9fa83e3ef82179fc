import decodeJpegWasm, { init as initJpegDecode } from '@jsquash/jpeg/decode.js'
import encodeJpegWasm, { init as initJpegEncode } from '@jsquash/jpeg/encode.js'
import encodePngWasm, { init as initPngEncode } from '@jsquash/png/encode.js'
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { expect } from 'vitest'
import type { TestApp } from './test-app'

/** Test images are made here, in the test, rather than committed as binaries. */
export interface Rgba {
  width: number
  height: number
  data: Uint8ClampedArray
}

let ready: Promise<void> | null = null
function codecs(): Promise<void> {
  const require = createRequire(import.meta.url)
  const compile = async (spec: string) => WebAssembly.compile(await readFile(require.resolve(spec)))
  ready ??= (async () => {
    await initJpegEncode(await compile('@jsquash/jpeg/codec/enc/mozjpeg_enc.wasm'))
    await initJpegDecode(await compile('@jsquash/jpeg/codec/dec/mozjpeg_dec.wasm'))
    await initPngEncode(await compile('@jsquash/png/codec/pkg/squoosh_png_bg.wasm'))
  })()
  return ready
}

export function paint(
  width: number,
  height: number,
  color: (x: number, y: number) => [number, number, number, number?],
): Rgba {
  const data = new Uint8ClampedArray(width * height * 4)
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [r, g, b, a = 255] = color(x, y)
      const i = (y * width + x) * 4
      data[i] = r
      data[i + 1] = g
      data[i + 2] = b
      data[i + 3] = a
    }
  }
  return { width, height, data }
}

export async function jpeg(image: Rgba, quality = 90): Promise<Uint8Array> {
  await codecs()
  return new Uint8Array(await encodeJpegWasm(image as ImageData, { quality }))
}

export async function png(image: Rgba): Promise<Uint8Array> {
  await codecs()
  return new Uint8Array(await encodePngWasm(image as ImageData))
}

export async function decodeJpeg(bytes: Uint8Array): Promise<Rgba> {
  await codecs()
  const image = await decodeJpegWasm(bytes.slice().buffer)
  return { width: image.width, height: image.height, data: image.data }
}

export function pixel(image: Rgba, x: number, y: number): [number, number, number] {
  const i = (y * image.width + x) * 4
  return [image.data[i]!, image.data[i + 1]!, image.data[i + 2]!]
}

const box = (type: string, ...parts: Uint8Array[]) => {
  const size = 8 + parts.reduce((n, p) => n + p.length, 0)
  const out = new Uint8Array(size)
  new DataView(out.buffer).setUint32(0, size)
  out.set(new TextEncoder().encode(type), 4)
  let o = 8
  for (const p of parts) {
    out.set(p, o)
    o += p.length
  }
  return out
}
const words = (...values: number[]) => {
  const out = new Uint8Array(values.length * 4)
  values.forEach((v, i) => new DataView(out.buffer).setUint32(i * 4, v >>> 0))
  return out
}

/** A minimal MP4: ftyp, a video track of width x height, `durationSec` long; `moov` last unless `fastStart`. */
export function mp4(options: {
  durationSec: number
  width: number
  height: number
  fastStart?: boolean
  brand?: string
}): Uint8Array {
  const timescale = 1000
  const ftyp = box(
    'ftyp',
    new TextEncoder().encode((options.brand ?? 'isom').padEnd(4)),
    words(512),
    new TextEncoder().encode('isomiso2mp41'),
  )
  const mvhd = box('mvhd', words(0, 0, 0, timescale, Math.round(options.durationSec * timescale)), new Uint8Array(80))
  // tkhd v0: flags, times, track id, reserved, duration, reserved x2, layer/group, volume/reserved, matrix (9), width, height
  const tkhd = box(
    'tkhd',
    words(0, 0, 0, 1, 0, 0, 0, 0, 0, 0),
    words(0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000),
    words(options.width * 65536, options.height * 65536),
  )
  const hdlr = box('hdlr', words(0, 0), new TextEncoder().encode('vide'), new Uint8Array(13))
  const moov = box('moov', mvhd, box('trak', tkhd, box('mdia', hdlr)))
  const mdat = box('mdat', new Uint8Array(4096).fill(7))
  const parts = options.fastStart ? [ftyp, moov, mdat] : [ftyp, mdat, moov]
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let o = 0
  for (const p of parts) {
    out.set(p, o)
    o += p.length
  }
  return out
}

/** Steps 1 and 2 of an upload: the presigned URL from the API, then a real HTTP PUT of the bytes to the store. */
export async function upload(
  t: TestApp,
  bytes: Uint8Array,
  contentType: string,
  filename = 'photo.jpg',
  withSize = true,
) {
  const res = await t.call('POST', '/v1/media/uploads', {
    body: { filename, contentType, ...(withSize ? { sizeBytes: bytes.length } : {}) },
  })
  expect(res.status, JSON.stringify(await res.clone().json())).toBe(200)
  const ticket = await res.json()
  const put = await fetch(ticket.uploadUrl, { method: 'PUT', headers: ticket.headers, body: new Blob([bytes.slice()]) })
  expect(put.status, await put.clone().text()).toBe(200)
  return ticket as {
    uploadUrl: string
    storageKey: string
    url: string
    headers: Record<string, string>
    expiresAt: string
    maxSizeBytes: number
  }
}

/** All three steps; returns the registered asset. */
export async function uploadAsset(
  t: TestApp,
  bytes: Uint8Array,
  contentType: string,
  extra: Record<string, unknown> = {},
) {
  const ticket = await upload(t, bytes, contentType, contentType.startsWith('video/') ? 'clip.mp4' : 'photo.jpg')
  const type = contentType.startsWith('video/') ? 'VIDEO' : 'IMAGE'
  const res = await t.call('POST', '/v1/media', {
    body: { type, storageKey: ticket.storageKey, url: ticket.url, ...extra },
  })
  const body = await res.json()
  expect(res.status, JSON.stringify(body)).toBe(200)
  return body
}
