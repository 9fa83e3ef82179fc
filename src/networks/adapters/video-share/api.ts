/**
 * The video-sharing network (YouTube Data API v3) as data: error reasons -> failure class, the
 * quota wait (until midnight Pacific, when daily quotas reset), how a caption becomes a title and
 * description, and the resumable-upload chunk size. Plus the one call helper.
 */
import type { FailureKind, VerifiedAccount, VerifyInput } from '../../adapter'
import {
  NetworkFailure,
  credential,
  joinUrl,
  kindOfStatus,
  request,
  retryAfterSec,
  type NetworkAnswer,
  type RequestOptions,
} from '../../http'

export const NETWORK = 'VIDEOSHARE_NET'
/** Access tokens last about 1 h; renew within 5 minutes of the end. */
export const REFRESH_MARGIN_SEC = 300
/** Resumable upload chunks: a multiple of 256 KiB (all but the last). */
export const UPLOAD_CHUNK_BYTES = 16 * 256 * 1024
/** Seconds between processing checks, and how many before we call it published while still processing. */
export const PROCESSING_POLL_SEC = 30
export const MAX_PROCESSING_POLLS = 20
/**
 * Every video goes out with this category (People & Blogs) and privacy; unaudited projects are
 * forced private by YouTube.
 */
export const CATEGORY_ID = '22'
export const PRIVACY_STATUS = 'public'
export const TITLE_MAX_CHARS = 100
export const DESCRIPTION_MAX_BYTES = 5000

/** `error.errors[0].reason` -> what it means to us (status decides the rest). */
export const REASONS: Record<string, { kind: FailureKind; waitSec?: 'pacific_midnight' | number; words?: string }> = {
  quotaExceeded: {
    kind: 'rate_limited',
    waitSec: 'pacific_midnight',
    words: "the project's daily YouTube quota is used up; it resets at midnight Pacific time",
  },
  uploadLimitExceeded: {
    kind: 'rate_limited',
    waitSec: 'pacific_midnight',
    words: "the channel reached YouTube's daily upload limit",
  },
  rateLimitExceeded: { kind: 'rate_limited', waitSec: 60 },
  userRateLimitExceeded: { kind: 'rate_limited', waitSec: 60 },
  forbidden: { kind: 'rejected' },
  insufficientPermissions: {
    kind: 'rejected',
    words: 'the account did not grant upload permission: reconnect it and allow managing videos',
  },
  youtubeSignupRequired: { kind: 'rejected', words: 'the Google account has no YouTube channel: create one first' },
  authError: { kind: 'auth_expired' },
}

/** videos resource status.failureReason / status.rejectionReason values, in words a person can act on. */
export const FAILURE_REASONS: Record<string, string> = {
  codec: 'the video uses a codec YouTube cannot read',
  conversion: 'YouTube could not convert the video',
  emptyFile: 'the file is empty',
  invalidFile: 'the file is not a valid video',
  tooSmall: 'the file is too small',
  uploadAborted: 'the upload was aborted',
}
export const REJECTION_REASONS: Record<string, string> = {
  claim: 'a rights claim',
  copyright: 'copyright infringement',
  duplicate: 'it duplicates a video already on YouTube',
  inappropriate: 'inappropriate content',
  legal: 'a legal issue',
  length: 'its length',
  termsOfUse: 'a Terms of Service violation',
  trademark: 'trademark infringement',
  uploaderAccountClosed: "the channel's account is closed",
  uploaderAccountSuspended: "the channel's account is suspended",
}

/** Seconds until the next midnight in America/Los_Angeles (YouTube quotas reset then), plus a minute. */
export function secondsToPacificMidnight(now: Date): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: 'America/Los_Angeles',
    hour12: false,
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(now)
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0) % 24
  const elapsed =
    get('hour') * 3600 +
    Number(parts.find((p) => p.type === 'minute')?.value ?? 0) * 60 +
    Number(parts.find((p) => p.type === 'second')?.value ?? 0)
  return 86_400 - elapsed + 60
}

/** A Google API error body `{ error: { code, message, errors: [{ reason, domain }] } }` as a failure. */
export function failureFrom(answer: NetworkAnswer, now: Date, context = ''): NetworkFailure {
  const error = answer.body?.error
  const reason: string | null = typeof error?.errors?.[0]?.reason === 'string' ? error.errors[0].reason : null
  const known = reason ? REASONS[reason] : undefined
  const kind = answer.status === 401 ? 'auth_expired' : (known?.kind ?? kindOfStatus(answer.status))
  const said = typeof error?.message === 'string' && error.message ? error.message : null
  const words = known?.words ?? said ?? reason ?? `HTTP ${answer.status}`
  let wait: number | undefined
  if (kind === 'rate_limited' || kind === 'transient') {
    const fallback = known?.waitSec === 'pacific_midnight' ? secondsToPacificMidnight(now) : known?.waitSec
    wait = known?.waitSec === 'pacific_midnight' ? fallback : (retryAfterSec(answer.headers, now) ?? fallback)
  }
  return new NetworkFailure(kind, `${NETWORK}: ${context}${words}`, wait)
}

export async function api(
  fetchImpl: typeof fetch,
  baseUrl: string,
  token: string,
  path: string,
  now: Date,
  options: RequestOptions = {},
): Promise<any> {
  const answer = await request(fetchImpl, NETWORK, joinUrl(baseUrl, path), {
    ...options,
    headers: { authorization: `Bearer ${token}`, ...options.headers },
  })
  if (answer.status >= 300) throw failureFrom(answer, now)
  return answer.body ?? {}
}

const safe = (s: string) => s.replace(/</g, '‹').replace(/>/g, '›')

function truncateBytes(s: string, max: number): string {
  const encoder = new TextEncoder()
  if (encoder.encode(s).byteLength <= max) return s
  let out = ''
  let bytes = 0
  for (const ch of s) {
    const n = encoder.encode(ch).byteLength
    if (bytes + n > max) break
    out += ch
    bytes += n
  }
  return out
}

/**
 * Title = the caption's first non-empty line (≤100 characters, cut on a code point; "Untitled"
 * when there is none); description = the whole caption as written (≤5,000 UTF-8 bytes). YouTube
 * refuses `<` and `>` in both: they become the look-alikes ‹ ›. No #Shorts is added: YouTube files
 * vertical or square videos of ≤3 minutes as Shorts by their shape.
 */
export function videoText(caption: string): { title: string; description: string } {
  const first =
    caption
      .split(/\r\n|\r|\n/)
      .map((l) => l.trim())
      .find((l) => l !== '') ?? ''
  const title = [...safe(first)].slice(0, TITLE_MAX_CHARS).join('') || 'Untitled'
  return { title, description: truncateBytes(safe(caption), DESCRIPTION_MAX_BYTES) }
}

export const permalinkOf = (videoId: string) => `https://www.youtube.com/watch?v=${videoId}`

/** The channels of the signed-in Google account (hosted connect), each an identity sharing the token. */
export async function listChannels(input: VerifyInput): Promise<VerifiedAccount[]> {
  const token = credential(input.credentials, 'accessToken')
  const path = '/youtube/v3/channels?part=snippet&mine=true&maxResults=50'
  const body = await api(input.fetch, input.baseUrl, token, path, input.now)
  return ((body.items ?? []) as Array<{ id?: unknown; snippet?: { title?: unknown } }>)
    .filter((channel) => typeof channel.id === 'string' && channel.id)
    .map((channel) => ({
      username: String(channel.snippet?.title ?? channel.id),
      externalId: String(channel.id),
      credentials: { ...input.credentials, channelId: String(channel.id) },
    }))
}
