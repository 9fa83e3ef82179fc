/**
 * The short-video network's Content Posting API (TikTok, open.tiktokapis.com) as data and one
 * call helper: error codes -> failure class, the waits we choose, chunking of FILE_UPLOAD, and how
 * a post's per-account options meet the creator's own settings (creator_info).
 */
import type { FailureKind, PublishMedia } from '../../adapter'
import { NetworkFailure, joinUrl, kindOfStatus, request, retryAfterSec, type RequestOptions } from '../../http'

export const NETWORK = 'SHORTVIDEO_NET'

export const PATHS = {
  token: '/v2/oauth/token/',
  userInfo: '/v2/user/info/?fields=open_id,display_name,username',
  creatorInfo: '/v2/post/publish/creator_info/query/',
  videoInit: '/v2/post/publish/video/init/',
  photoInit: '/v2/post/publish/content/init/',
  status: '/v2/post/publish/status/fetch/',
} as const

/** Access tokens last 2 h; renew within 5 minutes of the end. */
export const REFRESH_MARGIN_SEC = 300
/** Seconds between status polls while TikTok processes the upload or downloads our media. */
export const STATUS_POLL_SEC = 15

/**
 * FILE_UPLOAD chunking (media-transfer guide): chunks of 5–64 MB sent in order, 1–1000 of them;
 * a file under 5 MB goes whole; total_chunk_count = floor(size / chunk_size) and the last chunk
 * carries the remainder (so it may exceed chunk_size, up to 128 MB).
 */
export const CHUNKS = {
  minBytes: 5 * 1024 * 1024,
  maxBytes: 64 * 1024 * 1024,
  chosenBytes: 10 * 1024 * 1024,
  maxCount: 1000,
} as const

export interface ChunkPlan {
  chunkSize: number
  totalChunkCount: number
  /** [first, last] byte offsets (inclusive) of each chunk, in order. */
  ranges: Array<[number, number]>
}

export function chunkPlan(size: number): ChunkPlan {
  if (size < CHUNKS.minBytes) return { chunkSize: size, totalChunkCount: 1, ranges: [[0, size - 1]] }
  let chunkSize = Math.min(CHUNKS.chosenBytes, size)
  // Keep within 1000 chunks for very large files, never beyond 64 MB per chunk.
  while (Math.floor(size / chunkSize) > CHUNKS.maxCount && chunkSize < CHUNKS.maxBytes)
    chunkSize = Math.min(CHUNKS.maxBytes, chunkSize * 2)
  const totalChunkCount = Math.floor(size / chunkSize)
  const ranges: Array<[number, number]> = []
  for (let i = 0; i < totalChunkCount; i++)
    ranges.push([i * chunkSize, i === totalChunkCount - 1 ? size - 1 : (i + 1) * chunkSize - 1])
  return { chunkSize, totalChunkCount, ranges }
}

/** Error codes of `{ data, error: { code, message, log_id } }` and what each means to us. */
export const ERRORS: Record<string, { kind: FailureKind; waitSec?: number; words?: string }> = {
  access_token_invalid: { kind: 'auth_expired', words: 'the access token is invalid or expired' },
  scope_not_authorized: {
    kind: 'rejected',
    words: 'the account did not grant the video.publish scope: reconnect it and allow posting',
  },
  // Per-token request windows are one minute.
  rate_limit_exceeded: { kind: 'rate_limited', waitSec: 60, words: 'too many requests' },
  // The creator's daily post cap: no reset time is given; try again in an hour (backoff continues from there).
  spam_risk_too_many_posts: {
    kind: 'rate_limited',
    waitSec: 3600,
    words: 'the account reached its daily posting limit',
  },
  reached_active_user_cap: {
    kind: 'rate_limited',
    waitSec: 3600,
    words: 'this app reached its daily cap of active posting users',
  },
  spam_risk_user_banned_from_posting: { kind: 'rejected', words: 'the account is banned from posting' },
  privacy_level_option_mismatch: {
    kind: 'rejected',
    words: 'the privacy level is not one the account offers: choose another in videoNetOptions',
  },
  unaudited_client_can_only_post_to_private_accounts: {
    kind: 'rejected',
    words:
      'this app is not audited yet and may only post with privacy level SELF_ONLY: set videoNetOptions privacyLevel to SELF_ONLY',
  },
  spam_risk_too_many_pending_share: {
    kind: 'rate_limited',
    waitSec: 3600,
    words: 'the account has too many unfinished API shares',
  },
  url_ownership_unverified: {
    kind: 'rejected',
    words: "the media URL's domain is not verified for this app: verify the media domain in the developer portal",
  },
  file_format_check_failed: {
    kind: 'rejected',
    words: 'the file format is not accepted: use MP4, WebM or MOV video, or JPEG/WebP photos',
  },
  duration_check_failed: { kind: 'rejected', words: "the video's duration is outside what the account may post" },
  picture_size_check_failed: { kind: 'rejected', words: 'a photo is too large: use photos up to 1080p and 20 MB' },
  // The Content Posting pages document `invalid_param`; the v2 error-handling page `invalid_params`.
  invalid_param: { kind: 'rejected' },
  invalid_params: { kind: 'rejected' },
}

/** fail_reason of a FAILED publish, in words a person can act on (unknown ones are shown as given). */
export const FAIL_REASONS: Record<string, string> = {
  file_format_check_failed: 'the file format is not accepted (MP4, WebM, MOV; photos JPEG or WebP)',
  duration_check_failed: 'the video is longer or shorter than the account may post',
  frame_rate_check_failed: 'the frame rate must be between 23 and 60 fps',
  picture_size_check_failed: 'a photo is larger than 1080p',
  internal: 'TikTok failed internally; post it again',
  video_pull_failed: 'TikTok could not download the video',
  photo_pull_failed: 'TikTok could not download a photo',
  publish_cancelled: 'the post was cancelled',
  auth_removed: 'the account revoked this app; reconnect it',
  spam_risk_too_many_posts: 'the account reached its daily posting limit',
  spam_risk_user_banned_from_posting: 'the account is banned from posting',
  spam_risk_text: 'TikTok flagged the caption as spam',
  spam_risk: 'TikTok flagged the post as spam',
}

/** The Content-Type every Content Posting JSON call documents. */
export const JSON_TYPE = 'application/json; charset=UTF-8'

/**
 * `publicaly_available_post_id` is a list of int64: 19-digit ids do not survive JSON.parse as
 * numbers, so they are read as written from the raw body.
 */
export function publicPostIds(text: string): string[] {
  const list = /"publicaly_available_post_id"\s*:\s*\[([^\]]*)\]/.exec(text)?.[1] ?? ''
  return [...list.matchAll(/"?(\d+)"?/g)].map((m) => m[1]!)
}

/**
 * One API call with the account's bearer token; `data` of a success (plus the raw text), a
 * classified failure otherwise.
 */
export async function api(
  fetchImpl: typeof fetch,
  baseUrl: string,
  token: string,
  path: string,
  now: Date,
  options: RequestOptions = {},
): Promise<any> {
  const json: Record<string, string> = options.json !== undefined ? { 'content-type': JSON_TYPE } : {}
  const answer = await request(fetchImpl, NETWORK, joinUrl(baseUrl, path), {
    ...options,
    headers: { authorization: `Bearer ${token}`, ...json, ...options.headers },
  })
  const error = answer.body?.error
  const code: string | null = typeof error?.code === 'string' ? error.code : null
  if (answer.status < 300 && (code === null || code === 'ok'))
    return Object.assign(answer.body?.data ?? {}, { rawText: answer.text })
  const known = code ? ERRORS[code] : undefined
  const kind = known?.kind ?? (answer.status < 300 ? 'rejected' : kindOfStatus(answer.status))
  const said = typeof error?.message === 'string' && error.message ? error.message : null
  const words = known?.words ? `${known.words}${said ? ` (${said})` : ''}` : (said ?? code ?? `HTTP ${answer.status}`)
  const wait =
    kind === 'rate_limited' || kind === 'transient' ? (retryAfterSec(answer.headers, now) ?? known?.waitSec) : undefined
  throw new NetworkFailure(kind, `${NETWORK}: ${words}`, wait)
}

export interface CreatorInfo {
  privacy_level_options?: string[]
  comment_disabled?: boolean
  duet_disabled?: boolean
  stitch_disabled?: boolean
  max_video_post_duration_sec?: number
}

export interface PostSettings {
  privacyLevel: string
  disableComment: boolean
  disableDuet: boolean
  disableStitch: boolean
  brandContentToggle: boolean
  brandOrganicToggle: boolean
}

const flag = (v: unknown) => v === true

/**
 * The post's options for this account (videoNetOptions, already resolved; default SELF_ONLY)
 * checked against creator_info: the privacy level must be offered, an interaction the creator
 * switched off stays off, a video longer than the creator may post is refused before uploading.
 */
export function settingsFor(
  options: Record<string, unknown> | null,
  creator: CreatorInfo,
  video: PublishMedia | null,
): PostSettings {
  const privacyLevel = typeof options?.privacyLevel === 'string' ? options.privacyLevel : 'SELF_ONLY'
  const offered = creator.privacy_level_options ?? []
  if (!offered.includes(privacyLevel)) {
    throw new NetworkFailure(
      'rejected',
      `${NETWORK}: privacy level ${privacyLevel} is not offered by this account; it allows ${offered.join(', ') || 'none'}. Set videoNetOptions privacyLevel to one of them.`,
    )
  }
  const settings: PostSettings = {
    privacyLevel,
    disableComment: flag(options?.disableComment) || flag(creator.comment_disabled),
    disableDuet: flag(options?.disableDuet) || flag(creator.duet_disabled),
    disableStitch: flag(options?.disableStitch) || flag(creator.stitch_disabled),
    brandContentToggle: flag(options?.brandContentToggle),
    brandOrganicToggle: flag(options?.brandOrganicToggle),
  }
  if (settings.brandContentToggle && privacyLevel === 'SELF_ONLY') {
    throw new NetworkFailure(
      'rejected',
      `${NETWORK}: branded content cannot be private (SELF_ONLY): choose another privacy level or turn brandContentToggle off.`,
    )
  }
  const max = creator.max_video_post_duration_sec
  if (video && typeof max === 'number' && video.durationSec !== null && video.durationSec > max) {
    throw new NetworkFailure(
      'rejected',
      `${NETWORK}: the video lasts ${Math.ceil(video.durationSec)} s; this account may post at most ${max} s. Trim it.`,
    )
  }
  return settings
}
