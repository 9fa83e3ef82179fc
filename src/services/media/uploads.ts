import type { Deps } from '../../deps'
import { AppError } from '../../domain/errors'
import { randomBase62 } from '../../lib/ids'
import { EXTENSIONS, normalizeMimeType, type SupportedMimeType } from '../../media/sniff'

/** The documented limits of a presigned upload. */
export const UPLOAD_LIMITS = {
  /**
   * Largest file accepted: 2 GB (2,000,000,000 bytes). One presigned PUT carries at most 5 GiB on
   * S3/R2, and 2 GB covers every network's cap up to the 2 GB ones; the asset's size column is 32-bit.
   */
  maxSizeBytes: 2_000_000_000,
  /** A presigned URL works for 10 minutes. */
  urlTtlSec: 600,
} as const

export interface UploadTicket {
  uploadUrl: string
  method: 'PUT'
  headers: Record<string, string>
  storageKey: string
  url: string
  expiresAt: string
  maxSizeBytes: number
}

/** A filename as a key segment: ASCII letters, digits and dashes, at most 60 characters, with the type's extension. */
export function slugFilename(filename: string, mime: SupportedMimeType): string {
  const dot = filename.lastIndexOf('.')
  const stem = dot > 0 ? filename.slice(0, dot) : filename
  const slug = stem
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/g, '')
  return `${slug || 'file'}.${EXTENSIONS[mime]}`
}

/** `<workspace>/<yyyy>/<mm>/<random>-<slug>`: readable, unguessable, and always under the caller's workspace. */
export function newStorageKey(workspaceId: string, now: Date, name: string): string {
  const yyyy = String(now.getUTCFullYear())
  const mm = String(now.getUTCMonth() + 1).padStart(2, '0')
  return `${workspaceId}/${yyyy}/${mm}/${randomBase62(12)}-${name}`
}

/**
 * Step 1 of an upload: a presigned PUT for a new key. The content type (and the length, when the
 * caller says it) are part of the signature, so the store refuses a PUT that sends anything else.
 */
export async function createUpload(
  deps: Pick<Deps, 'storage' | 'clock'>,
  workspaceId: string,
  input: { filename: string; contentType: string; sizeBytes?: number | undefined },
): Promise<UploadTicket> {
  const mime = normalizeMimeType(input.contentType)
  if (!mime) {
    throw new AppError(
      'media_not_supported',
      `Content type "${input.contentType}" is not accepted. Upload JPEG, PNG, GIF, WebP, BMP or TIFF images, or MP4, MOV, M4V or WebM videos.`,
      {
        details: [{ path: 'contentType', message: 'not a supported image or video type' }],
      },
    )
  }
  if (input.sizeBytes !== undefined && input.sizeBytes > UPLOAD_LIMITS.maxSizeBytes) {
    throw new AppError(
      'media_not_supported',
      `The file is ${input.sizeBytes} bytes; uploads are limited to ${UPLOAD_LIMITS.maxSizeBytes} bytes (2 GB).`,
      {
        details: [{ path: 'sizeBytes', limit: UPLOAD_LIMITS.maxSizeBytes, actual: input.sizeBytes }],
      },
    )
  }
  const now = deps.clock.now()
  const storageKey = newStorageKey(workspaceId, now, slugFilename(input.filename, mime))
  const signed = await deps.storage.presignPut({
    key: storageKey,
    contentType: mime,
    contentLength: input.sizeBytes,
    expiresInSec: UPLOAD_LIMITS.urlTtlSec,
  })
  return {
    uploadUrl: signed.url,
    method: 'PUT',
    headers: signed.headers,
    storageKey,
    url: deps.storage.publicUrl(storageKey),
    expiresAt: new Date(now.getTime() + UPLOAD_LIMITS.urlTtlSec * 1000).toISOString(),
    maxSizeBytes: UPLOAD_LIMITS.maxSizeBytes,
  }
}
