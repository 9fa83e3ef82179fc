/**
 * Media from bytes the caller holds (the MCP tool `upload_media`, base64 in the arguments): the same
 * type and size checks as an upload (`createUpload`), stored under a new key of the workspace, then
 * registered exactly as an uploaded object (`registerAsset`). Nothing stays stored when it is refused.
 */
import type { Deps } from '../../deps'
import { AppError } from '../../domain/errors'
import { fromBase64 } from '../../lib/crypto'
import { mediaTypeOf, normalizeMimeType, sniffMimeType } from '../../media/sniff'
import { registerAsset, type MediaAsset } from './assets'
import { newStorageKey, slugFilename, UPLOAD_LIMITS } from './uploads'

export interface AssetFromBytesInput {
  /** The file, base64 (standard alphabet, padding optional, whitespace ignored). */
  data: string
  filename: string
  contentType: string
  altText?: string | null | undefined
}

const refuse = (code: 'invalid_request' | 'media_not_supported', path: string, message: string) =>
  new AppError(code, message, { details: [{ path, message }] })

/** The bytes of `data`, or `invalid_request` naming `data` when it is not base64. */
export function decodeBase64(data: string): Uint8Array {
  const text = data.replace(/\s+/g, '')
  if (text.length === 0) throw refuse('invalid_request', 'data', 'data is empty; send the file as base64.')
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text) || text.length % 4 === 1)
    throw refuse(
      'invalid_request',
      'data',
      'data is not base64: use the standard alphabet (A-Z, a-z, 0-9, +, /) with optional = padding, and no data: prefix.',
    )
  return fromBase64(text.padEnd(Math.ceil(text.length / 4) * 4, '='))
}

/** Stores the decoded file and answers the asset, as `POST /v1/media` answers an uploaded one. */
export async function registerAssetFromBytes(
  deps: Pick<Deps, 'db' | 'storage' | 'clock'>,
  workspaceId: string,
  input: AssetFromBytesInput,
): Promise<MediaAsset> {
  const mime = normalizeMimeType(input.contentType)
  if (!mime)
    throw refuse(
      'media_not_supported',
      'contentType',
      `Content type "${input.contentType}" is not accepted. Send JPEG, PNG, GIF, WebP, BMP or TIFF images, or MP4, MOV, M4V or WebM videos.`,
    )
  const bytes = decodeBase64(input.data)
  if (bytes.byteLength > UPLOAD_LIMITS.maxSizeBytes)
    throw refuse(
      'media_not_supported',
      'data',
      `The file is ${bytes.byteLength} bytes; uploads are limited to ${UPLOAD_LIMITS.maxSizeBytes} bytes.`,
    )
  const found = sniffMimeType(bytes.subarray(0, 64))
  if (found !== mime)
    throw refuse(
      'media_not_supported',
      'data',
      found
        ? `The bytes are ${found}, not ${mime}; send contentType ${found}.`
        : 'The bytes are not an image or video the service accepts (JPEG, PNG, GIF, WebP, BMP, TIFF, MP4, MOV, M4V, WebM).',
    )
  const key = newStorageKey(workspaceId, deps.clock.now(), slugFilename(input.filename, mime))
  await deps.storage.put(key, bytes, mime)
  try {
    return await registerAsset(deps, workspaceId, {
      type: mediaTypeOf(mime),
      storageKey: key,
      url: deps.storage.publicUrl(key),
      altText: input.altText,
    })
  } catch (err) {
    await deps.storage.delete(key).catch(() => {})
    throw err
  }
}
