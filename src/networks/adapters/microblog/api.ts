/**
 * The microblog network's (X API v2) HTTP conventions: bearer calls, its problem bodies as
 * failures, ids from post URLs, and the chunked media upload (initialize, append, finalize, STATUS).
 */
import type { PublishMedia } from '../../adapter'
import {
  downloadMedia,
  failureOf,
  joinUrl,
  MEDIA_TIMEOUT_MS,
  NetworkFailure,
  request,
  retryAfterSec,
  type NetworkAnswer,
  type RequestOptions,
} from '../../http'

export const NETWORK = 'MICROBLOG_NET'

/** Bytes per `append` segment (the network takes up to 5 MB; 1 MB keeps each request short). */
export const CHUNK_BYTES = 1024 * 1024
/** `media_category` by our media kind. */
export const MEDIA_CATEGORY = { gif: 'tweet_gif', image: 'tweet_image', video: 'tweet_video' } as const
/** When the network gives no `check_after_secs`. */
export const DEFAULT_CHECK_AFTER_SEC = 5
/** Words in a 403 that mean the post repeats one already published. */
const DUPLICATE = /duplicate/i

/** A post id from an id or a post URL (x.com / twitter.com /<user>/status/<id>, /i/web/status/<id>). */
export function postIdOf(value: string): string {
  const trimmed = value.trim()
  if (/^\d+$/.test(trimmed)) return trimmed
  const match =
    /^https?:\/\/(?:www\.|mobile\.)?(?:x|twitter)\.com\/(?:[^/]+\/status(?:es)?|i\/web\/status)\/(\d+)/i.exec(trimmed)
  if (!match) throw new NetworkFailure('rejected', `${NETWORK}: "${trimmed}" is neither a post id nor a post URL.`)
  return match[1]!
}

/** The problem body's own words: `detail`, `title`, or the first of `errors`. */
export function problemWords(body: any): string | null {
  if (!body || typeof body !== 'object') return null
  const first = Array.isArray(body.errors) ? body.errors[0] : null
  return body.detail ?? first?.detail ?? first?.message ?? body.title ?? body.error_description ?? null
}

export function failureOfAnswer(answer: NetworkAnswer, now: Date): NetworkFailure {
  const words = problemWords(answer.body)
  if (answer.status === 429) {
    return new NetworkFailure(
      'rate_limited',
      `${NETWORK}: ${words ?? 'too many requests'}`,
      retryAfterSec(answer.headers, now),
    )
  }
  if (answer.status === 403 && words && DUPLICATE.test(words)) {
    return new NetworkFailure(
      'rejected',
      `${NETWORK} refused a duplicate: ${words} Change the text to publish it again.`,
    )
  }
  if (answer.status === 401)
    return new NetworkFailure('auth_expired', `${NETWORK}: ${words ?? 'the access token was refused'}`)
  return failureOf(answer, NETWORK, words, now)
}

/**
 * A token renewal the endpoint did not grant. It answers 400 (invalid_grant / invalid_request) or
 * 401 for a refresh token it no longer takes: the user reconnects. Anything else as any other call.
 */
export function tokenFailure(answer: NetworkAnswer, now: Date): NetworkFailure {
  if (answer.status !== 400 && answer.status !== 401) return failureOfAnswer(answer, now)
  return new NetworkFailure(
    'auth_expired',
    `${NETWORK}: ${problemWords(answer.body) ?? answer.body?.error ?? `HTTP ${answer.status}`}`,
  )
}

export interface Api {
  call(method: string, path: string, options?: RequestOptions): Promise<any>
  /** The answer as is (callers that read a failure's words themselves). */
  raw(method: string, path: string, options?: RequestOptions): Promise<NetworkAnswer>
}

export function api(fetchImpl: typeof fetch, baseUrl: string, accessToken: string, now: Date): Api {
  const raw = (method: string, path: string, options: RequestOptions = {}) =>
    request(fetchImpl, NETWORK, joinUrl(baseUrl, path), {
      ...options,
      method,
      headers: { authorization: `Bearer ${accessToken}`, ...options.headers },
    })
  return {
    raw,
    async call(method, path, options) {
      const answer = await raw(method, path, options)
      if (answer.status < 200 || answer.status > 299) throw failureOfAnswer(answer, now)
      return answer.body ?? {}
    },
  }
}

export interface Uploaded {
  id: string
  /** Seconds the id stays usable (`expires_after_secs` of finalize, else of initialize). */
  expiresAfterSec?: number
  /** Set while the network is still processing the media. */
  checkAfterSec?: number
}

function categoryOf(media: PublishMedia): string {
  if (media.type === 'VIDEO') return MEDIA_CATEGORY.video
  return media.mimeType === 'image/gif' ? MEDIA_CATEGORY.gif : MEDIA_CATEGORY.image
}

/** The processing state of an uploaded media id: `checkAfterSec` when unfinished; throws when it failed. */
export function processingOf(info: any): number | undefined {
  if (!info || typeof info !== 'object') return undefined
  if (info.state === 'succeeded') return undefined
  if (info.state === 'failed') {
    const words = info.error?.message ?? info.error?.name ?? 'the media could not be processed'
    throw new NetworkFailure('rejected', `${NETWORK}: ${words}`)
  }
  return Math.max(1, Number(info.check_after_secs) || DEFAULT_CHECK_AFTER_SEC)
}

/** One media item, chunked: initialize, append each segment (multipart), finalize. */
export async function uploadMedia(x: Api, fetchImpl: typeof fetch, media: PublishMedia): Promise<Uploaded> {
  const bytes = await downloadMedia(fetchImpl, media)
  const init = await x.call('POST', '/2/media/upload/initialize', {
    json: { media_type: media.mimeType, total_bytes: bytes.byteLength, media_category: categoryOf(media) },
  })
  const id = String(init.data?.id ?? '')
  if (!id) throw new NetworkFailure('transient', `${NETWORK} did not return a media id.`)
  for (let offset = 0, index = 0; offset < bytes.byteLength; offset += CHUNK_BYTES, index++) {
    const form = new FormData()
    form.set('segment_index', String(index))
    form.set(
      'media',
      new Blob([bytes.slice(offset, offset + CHUNK_BYTES)], { type: 'application/octet-stream' }),
      'media',
    )
    await x.call('POST', `/2/media/upload/${id}/append`, { body: form, timeoutMs: MEDIA_TIMEOUT_MS })
  }
  const done = await x.call('POST', `/2/media/upload/${id}/finalize`)
  const checkAfterSec = processingOf(done.data?.processing_info)
  const lifetime = Number(done.data?.expires_after_secs ?? init.data?.expires_after_secs)
  return {
    id,
    ...(checkAfterSec === undefined ? {} : { checkAfterSec }),
    ...(lifetime > 0 ? { expiresAfterSec: lifetime } : {}),
  }
}

/** Seconds to wait before the media is ready, or undefined once it is. */
export async function mediaStatus(x: Api, id: string): Promise<number | undefined> {
  const answer = await x.call('GET', `/2/media/upload?command=STATUS&media_id=${encodeURIComponent(id)}`)
  return processingOf(answer.data?.processing_info)
}
