import { BMP } from 'image-size/types/bmp'
import { GIF } from 'image-size/types/gif'
import { JPG } from 'image-size/types/jpg'
import { PNG } from 'image-size/types/png'
import { TIFF } from 'image-size/types/tiff'
import { WEBP } from 'image-size/types/webp'
import type { ObjectStorage } from '../infra/storage/types'
import { readMp4Info } from './mp4'
import { mediaTypeOf, sniffMimeType, type MediaType, type SupportedMimeType } from './sniff'

/** What registration stores about a file, all read from the stored object itself. */
export interface MediaFacts {
  type: MediaType
  mimeType: SupportedMimeType
  sizeBytes: number
  /** As displayed: EXIF orientation (images) or the track matrix (videos) applied. */
  width: number | null
  height: number | null
  durationSec: number | null
  /** EXIF orientation of a JPEG (1 to 8), 1 otherwise. */
  orientation: number
  /** The Content-Type the object was stored with (bound into the upload's signature). */
  storedContentType: string | null
}

export type ProbeResult =
  | { ok: true; facts: MediaFacts }
  | { ok: false; reason: 'missing' }
  | { ok: false; reason: 'unsupported'; message: string }

const HEAD_BYTES = 256 * 1024
const RETRY_BYTES = 4 * 1024 * 1024

const IMAGE_READERS = {
  'image/jpeg': JPG,
  'image/png': PNG,
  'image/gif': GIF,
  'image/webp': WEBP,
  'image/bmp': BMP,
  'image/tiff': TIFF,
} as const

function imageSize(
  mime: keyof typeof IMAGE_READERS,
  bytes: Uint8Array,
): { width: number; height: number; orientation: number } | null {
  try {
    const size = IMAGE_READERS[mime].calculate(bytes)
    if (!(size.width > 0 && size.height > 0)) return null
    const orientation = size.orientation && size.orientation >= 1 && size.orientation <= 8 ? size.orientation : 1
    return orientation >= 5
      ? { width: size.height, height: size.width, orientation }
      : { width: size.width, height: size.height, orientation }
  } catch {
    return null
  }
}

/**
 * Reads what a stored object is: its size from the store, its type from its first bytes, image
 * dimensions from its header (JPEG SOF, PNG IHDR, WebP, GIF, BMP, TIFF) and a video's duration and
 * size from its `moov` box, with ranged reads only.
 */
export async function probeObject(storage: ObjectStorage, key: string): Promise<ProbeResult> {
  const head = await storage.head(key)
  if (!head) return { ok: false, reason: 'missing' }
  if (head.sizeBytes === 0) return { ok: false, reason: 'unsupported', message: 'The uploaded file is empty.' }
  let bytes = (await storage.getRange(key, 0, Math.min(head.sizeBytes, HEAD_BYTES) - 1)) ?? new Uint8Array(0)
  const mimeType = sniffMimeType(bytes)
  if (!mimeType) {
    return {
      ok: false,
      reason: 'unsupported',
      message:
        'The uploaded file is not an image or video the service accepts (JPEG, PNG, GIF, WebP, BMP, TIFF, MP4, MOV, M4V, WebM).',
    }
  }
  const facts: MediaFacts = {
    type: mediaTypeOf(mimeType),
    mimeType,
    sizeBytes: head.sizeBytes,
    width: null,
    height: null,
    durationSec: null,
    orientation: 1,
    storedContentType: head.contentType,
  }
  if (mimeType in IMAGE_READERS) {
    const reader = mimeType as keyof typeof IMAGE_READERS
    let size = imageSize(reader, bytes)
    if (!size && head.sizeBytes > bytes.length) {
      // The dimensions sit past a large metadata block (EXIF thumbnails, TIFF directories at the end).
      bytes = (await storage.getRange(key, 0, Math.min(head.sizeBytes, RETRY_BYTES) - 1)) ?? bytes
      size = imageSize(reader, bytes)
    }
    if (!size)
      return {
        ok: false,
        reason: 'unsupported',
        message: `The file looks like ${mimeType} but its dimensions cannot be read; it may be damaged.`,
      }
    return { ok: true, facts: { ...facts, ...size } }
  }
  if (mimeType !== 'video/webm') {
    const info = await readMp4Info(
      async (start, end) => (await storage.getRange(key, start, end)) ?? new Uint8Array(0),
      head.sizeBytes,
    )
    if (info) Object.assign(facts, info)
  }
  return { ok: true, facts }
}
