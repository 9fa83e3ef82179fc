/**
 * Media from a URL: `POST /v1/media` with `sourceUrl`. The service fetches the address itself
 * (through the outbound guard, networks/outbound.ts, as `deps.networks.fetch`), streams the body
 * into the store under a new key of the workspace, then registers that object exactly as an
 * uploaded one (`registerAsset`: the same probing, claims and asset). What it refuses, and with
 * which code, is in docs/decisions.md ("Media from a URL").
 */
import type { Deps } from '../../deps'
import { AppError, type ErrorDetail } from '../../domain/errors'
import { mediaTypeOf, sniffMimeType, type MediaType, type SupportedMimeType } from '../../media/sniff'
import { checkOutboundUrl, MAX_REDIRECTS, OutboundRefused } from '../../networks/outbound'
import { existingFolder, registerAsset, type MediaAsset } from './assets'
import { newStorageKey, slugFilename, UPLOAD_LIMITS } from './uploads'

export interface AssetFromUrlInput {
  sourceUrl: string
  /** A claim: refused (422 `invalid_option`) when the bytes are the other type. */
  type?: MediaType | undefined
  altText?: string | null | undefined
  folderId?: string | null | undefined
  folder?: string | undefined
}

/** The whole fetch, connecting and reading the body, must end within this. */
export const FROM_URL_TIMEOUT_MS = 30_000
/** Bytes read before deciding what the file is (`sniffMimeType` needs 64). */
const SNIFF_BYTES = 64

/** Why a URL could not be used, in `details[0].reason`, so a client can tell the cases apart. */
type Reason = 'refused' | 'unreachable' | 'status' | 'timeout'

const urlError = (reason: Reason, message: string, extra: Partial<ErrorDetail> = {}) =>
  new AppError('invalid_request', message, { details: [{ path: 'sourceUrl', message, reason, ...extra }] })

const UNSUPPORTED =
  'is not an image or video the service accepts (JPEG, PNG, GIF, WebP, BMP, TIFF, MP4, MOV, M4V, WebM)'

/** Thrown inside the body stream when the file passes the cap: the read stops there. */
class TooLarge extends Error {}
/** The source's connection failed while its body was read. */
class SourceBroken extends Error {}

/** A filename for the storage key: the URL's last path segment (its extension replaced by the real one). */
function nameFrom(url: URL): string {
  const last = url.pathname.split('/').filter(Boolean).pop() ?? ''
  try {
    return decodeURIComponent(last) || 'file'
  } catch {
    return last || 'file'
  }
}

/** Reads until `n` bytes (or the end) are in: what the file is is decided before anything is stored. */
async function readHead(reader: ReadableStreamDefaultReader<Uint8Array>, n: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = []
  let length = 0
  while (length < n) {
    const { done, value } = await reader.read()
    if (done) break
    chunks.push(value)
    length += value.byteLength
  }
  const head = new Uint8Array(length)
  let offset = 0
  for (const c of chunks) {
    head.set(c, offset)
    offset += c.byteLength
  }
  return head
}

/** `head`, then the rest of `reader`; errors with `TooLarge` (and stops reading) past `maxBytes`. */
function capped(head: Uint8Array, reader: ReadableStreamDefaultReader<Uint8Array>, maxBytes: number) {
  let total = head.byteLength
  return new ReadableStream<Uint8Array>({
    start(controller) {
      if (total > maxBytes) {
        void reader.cancel()
        controller.error(new TooLarge())
      } else if (head.byteLength > 0) controller.enqueue(head)
    },
    async pull(controller) {
      let chunk: ReadableStreamReadResult<Uint8Array>
      try {
        chunk = await reader.read()
      } catch {
        return controller.error(new SourceBroken())
      }
      const { done, value } = chunk
      if (done) return controller.close()
      total += value.byteLength
      if (total > maxBytes) {
        await reader.cancel().catch(() => {})
        return controller.error(new TooLarge())
      }
      controller.enqueue(value)
    },
    cancel: (reason) => reader.cancel(reason),
  })
}

function tooLarge(maxBytes: number, actual?: number): AppError {
  const message = `The file at sourceUrl is larger than ${maxBytes} bytes, the most the service accepts.`
  return new AppError('media_not_supported', message, {
    details: [{ path: 'sourceUrl', message, limit: maxBytes, ...(actual !== undefined ? { actual } : {}) }],
  })
}

function notMedia(head: Uint8Array, contentType: string | null): AppError {
  const text = new TextDecoder().decode(head.subarray(0, 64)).trimStart().toLowerCase()
  const html = /^(<!doctype html|<html|<head|<body)/.test(text) || /^text\/html\b/i.test(contentType ?? '')
  const message =
    head.byteLength === 0
      ? 'The file at sourceUrl is empty.'
      : `The file at sourceUrl ${html ? 'is an HTML page, which ' : ''}${UNSUPPORTED}.`
  return new AppError('media_not_supported', message, { details: [{ path: 'sourceUrl', message }] })
}

/** The address's answer, or the refusal in words (never an address the name resolved to). */
async function fetchSource(deps: Pick<Deps, 'networks'>, url: URL, signal: AbortSignal): Promise<Response> {
  try {
    return await deps.networks.fetch(url, { signal, headers: { accept: 'image/*, video/*' } })
  } catch (err) {
    if (signal.aborted) throw err
    if (err instanceof OutboundRefused && err.message.includes(`more than ${MAX_REDIRECTS} times`))
      throw urlError('refused', `sourceUrl redirected more than ${MAX_REDIRECTS} times.`)
    if (err instanceof OutboundRefused)
      throw urlError(
        'refused',
        'sourceUrl was refused: it, or an address it redirected to, is not a public https address.',
      )
    throw urlError('unreachable', `sourceUrl could not be reached (${url.hostname} did not answer).`)
  }
}

/**
 * Fetches `sourceUrl` and registers the file as an asset of the workspace. The body is streamed
 * into the store with at most one storage part in memory, and the read stops as soon as it passes
 * the cap; nothing stays stored when anything is refused.
 */
export async function registerAssetFromUrl(
  deps: Pick<Deps, 'db' | 'storage' | 'clock' | 'networks' | 'settings'>,
  workspaceId: string,
  input: AssetFromUrlInput,
): Promise<MediaAsset> {
  const allowPrivate = deps.settings.allowPrivateUrls ?? false
  const problem = await checkOutboundUrl(input.sourceUrl, { allowPrivate })
  if (problem) throw urlError('refused', `sourceUrl ${problem}.`)
  const url = new URL(input.sourceUrl)
  // An unknown folder is refused before anything is fetched.
  if (input.folderId) await existingFolder(deps.db, workspaceId, input.folderId)
  const limits = deps.settings.mediaFromUrl ?? {}
  const maxBytes = Math.min(limits.maxSizeBytes ?? UPLOAD_LIMITS.maxSizeBytes, UPLOAD_LIMITS.maxSizeBytes)
  const timeoutMs = limits.timeoutMs ?? FROM_URL_TIMEOUT_MS
  const timeout = new AbortController()
  const timer = setTimeout(() => timeout.abort(), timeoutMs)
  let stored: string | null = null
  try {
    const response = await fetchSource(deps, url, timeout.signal)
    if (!response.ok) {
      await response.body?.cancel().catch(() => {})
      throw urlError('status', `sourceUrl answered HTTP ${response.status}; it must answer 200 with the file.`, {
        status: response.status,
      })
    }
    const declared = Number(response.headers.get('content-length') ?? Number.NaN)
    if (declared > maxBytes) {
      await response.body?.cancel().catch(() => {})
      throw tooLarge(maxBytes, declared)
    }
    const reader = (response.body ?? new ReadableStream<Uint8Array>({ start: (c) => c.close() })).getReader()
    const head = await readHead(reader, SNIFF_BYTES).catch(() => {
      throw new SourceBroken()
    })
    const mime: SupportedMimeType | null = sniffMimeType(head)
    if (!mime) {
      await reader.cancel().catch(() => {})
      throw notMedia(head, response.headers.get('content-type'))
    }
    const type = mediaTypeOf(mime)
    if (input.type !== undefined && input.type !== type) {
      await reader.cancel().catch(() => {})
      const message = `The file at sourceUrl is ${mime}, a ${type}, not a ${input.type}.`
      throw new AppError('invalid_option', message, {
        details: [{ path: 'type', message, claimed: input.type, found: type }],
      })
    }
    const key = newStorageKey(workspaceId, deps.clock.now(), slugFilename(nameFrom(url), mime))
    stored = key
    await deps.storage.putStream(key, capped(head, reader, maxBytes), mime)
    clearTimeout(timer)
    const asset = await registerAsset(deps, workspaceId, {
      type,
      storageKey: key,
      url: deps.storage.publicUrl(key),
      altText: input.altText,
      folderId: input.folderId,
      folder: input.folder,
    })
    stored = null
    return asset
  } catch (err) {
    if (stored !== null) await deps.storage.delete(stored).catch(() => {})
    if (err instanceof TooLarge) throw tooLarge(maxBytes)
    if (timeout.signal.aborted && !(err instanceof AppError))
      throw urlError('timeout', `sourceUrl did not send the whole file within ${timeoutMs / 1000} s.`, {
        limit: timeoutMs / 1000,
      })
    if (err instanceof SourceBroken)
      throw urlError('unreachable', 'sourceUrl stopped answering before the whole file was sent.')
    throw err
  } finally {
    clearTimeout(timer)
  }
}
