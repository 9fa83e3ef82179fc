/**
 * Duration and display size of an MP4/QuickTime file from its `moov` box, found with ranged reads
 * (the box may sit at the end of a file that was not made "fast start"). Reads box headers and the
 * `moov` box only, never the media data.
 */
export type RangeReader = (start: number, end: number) => Promise<Uint8Array>

export interface Mp4Info {
  durationSec: number | null
  width: number | null
  height: number | null
}

const MAX_MOOV_BYTES = 32 * 1024 * 1024
/** Real files have a handful of top-level boxes (ftyp, free, mdat, moov, uuid...); each costs one ranged read. */
const MAX_TOP_LEVEL_BOXES = 32

const u32 = (b: Uint8Array, o: number) => new DataView(b.buffer, b.byteOffset, b.byteLength).getUint32(o)
const i32 = (b: Uint8Array, o: number) => new DataView(b.buffer, b.byteOffset, b.byteLength).getInt32(o)
const u64 = (b: Uint8Array, o: number) => u32(b, o) * 2 ** 32 + u32(b, o + 4)
const type = (b: Uint8Array, o: number) => String.fromCharCode(b[o]!, b[o + 1]!, b[o + 2]!, b[o + 3]!)

/** The child boxes of a box body: [type, body] pairs. */
function* children(body: Uint8Array): Generator<[string, Uint8Array]> {
  let o = 0
  while (o + 8 <= body.length) {
    let size = u32(body, o)
    let header = 8
    if (size === 1 && o + 16 <= body.length) {
      size = u64(body, o + 8)
      header = 16
    } else if (size === 0) size = body.length - o
    if (size < header || o + size > body.length) return
    yield [type(body, o + 4), body.subarray(o + header, o + size)]
    o += size
  }
}

function parseMoov(moov: Uint8Array): Mp4Info {
  const info: Mp4Info = { durationSec: null, width: null, height: null }
  for (const [kind, body] of children(moov)) {
    if (kind === 'mvhd' && body.length >= 32) {
      const v1 = body[0] === 1
      const timescale = u32(body, v1 ? 20 : 12)
      const duration = v1 ? u64(body, 24) : u32(body, 16)
      const unknown = v1 ? duration >= 2 ** 64 - 1 : duration === 0xffffffff
      if (timescale > 0 && !unknown) info.durationSec = Math.round((duration / timescale) * 1000) / 1000
    }
    if (kind === 'trak' && info.width === null) {
      let handler = ''
      let size: { width: number; height: number } | null = null
      for (const [k, b] of children(body)) {
        if (k === 'tkhd') size = trackSize(b)
        if (k === 'mdia')
          for (const [k2, b2] of children(b)) if (k2 === 'hdlr' && b2.length >= 12) handler = type(b2, 8)
      }
      if (handler === 'vide' && size && size.width > 0 && size.height > 0) Object.assign(info, size)
    }
  }
  return info
}

/** Width and height of a track as displayed: a 90° or 270° rotation matrix swaps them. */
function trackSize(tkhd: Uint8Array): { width: number; height: number } | null {
  const v1 = tkhd[0] === 1
  const matrix = v1 ? 52 : 40
  const dims = v1 ? 88 : 76
  if (tkhd.length < dims + 8) return null
  const width = Math.round(u32(tkhd, dims) / 65536)
  const height = Math.round(u32(tkhd, dims + 4) / 65536)
  const a = i32(tkhd, matrix)
  const d = i32(tkhd, matrix + 16)
  const rotated = a === 0 && d === 0
  return rotated ? { width: height, height: width } : { width, height }
}

export async function readMp4Info(read: RangeReader, fileSize: number): Promise<Mp4Info | null> {
  let offset = 0
  for (let n = 0; n < MAX_TOP_LEVEL_BOXES && offset + 8 <= fileSize; n++) {
    const head = await read(offset, Math.min(offset + 15, fileSize - 1))
    if (head.length < 8) return null
    let size = u32(head, 0)
    let header = 8
    if (size === 1) {
      if (head.length < 16) return null
      size = u64(head, 8)
      header = 16
    } else if (size === 0) size = fileSize - offset
    if (size < header) return null
    if (type(head, 4) === 'moov') {
      if (size > MAX_MOOV_BYTES) return null
      return parseMoov(await read(offset + header, offset + size - 1))
    }
    offset += size
  }
  return null
}
