/**
 * The blog network's API v2 (Tumblr) as the blog adapter speaks it: one authenticated call with
 * the network's envelope (`{ meta: { status, msg }, response }`, errors in `errors[]` with a
 * `title`, a `detail` and a subcode) classified, and the OAuth 2 token refresh (client id and
 * secret in the form; the answer rotates the refresh token). Every call carries the same
 * User-Agent, as the reference requires of an application.
 */
import type { CredentialRefresh } from '../../adapter'
import { NetworkFailure, credential, failureOf, joinUrl, request, type NetworkAnswer } from '../../http'
import { oauthRefresh, type OAuthRenewal } from '../../oauth'
import type { AdapterOptions } from '../options'

export const NETWORK = 'BLOG_NET'
/** "Required, and the same on every request": the reference suspends applications that vary it. */
export const USER_AGENT = 'social-publishing-service/1.0'
/** An access token lasts 2,520 s in the reference's example; renew it five minutes before. */
export const REFRESH_MARGIN_SEC = 300
export const DEFAULT_TOKEN_LIFETIME_SEC = 2520
/** The wait after a 429 that names none (the reference documents no reset header). */
export const DEFAULT_RATE_LIMIT_WAIT_SEC = 60
/**
 * A daily allowance spent (posts 8023, media 8004, videos 8011): counted per calendar day on the
 * network's clock, whose zone is not documented, so the publisher tries again in an hour.
 */
export const DAILY_LIMIT_WAIT_SEC = 3600
const DAILY_LIMIT_SUBCODES = [8004, 8011, 8023]
/** 8010: a video upload is still transcoding; another waits a little. */
const VIDEO_BUSY_SUBCODE = 8010
export const VIDEO_BUSY_WAIT_SEC = 120

/** Where a post lives on the network's site. */
export const POST_URL = (blogName: string, id: string) =>
  `https://www.tumblr.com/${encodeURIComponent(blogName)}/${encodeURIComponent(id)}`

export interface BlogContext {
  fetch: typeof fetch
  baseUrl: string
  now: Date
  credentials: Record<string, unknown>
}

export type BlogCall = (
  method: string,
  path: string,
  options?: { query?: Record<string, string>; json?: unknown; form?: Record<string, string>; body?: FormData },
) => Promise<any>

/** The first error of the envelope, in the network's words, with its subcode. */
function firstError(body: any): { words: string | null; code: number | null } {
  const e = Array.isArray(body?.errors) ? body.errors[0] : null
  const words =
    [e?.detail, e?.title, body?.meta?.msg, body?.error_description, body?.error].find(
      (w) => typeof w === 'string' && w.trim() !== '',
    ) ?? null
  return { words, code: typeof e?.code === 'number' ? e.code : null }
}

/** The failure an answer stands for: 401 auth, 429 waits, a spent daily allowance waits an hour. */
export function blogFailure(answer: NetworkAnswer, now: Date): NetworkFailure {
  const { words, code } = firstError(answer.body)
  const failure = failureOf(answer, NETWORK, words, now)
  if (code !== null && DAILY_LIMIT_SUBCODES.includes(code))
    return new NetworkFailure('rate_limited', failure.message, DAILY_LIMIT_WAIT_SEC)
  if (code === VIDEO_BUSY_SUBCODE) return new NetworkFailure('transient', failure.message, VIDEO_BUSY_WAIT_SEC)
  if (failure.kind === 'rate_limited' && failure.retryAfterSec === undefined)
    return new NetworkFailure('rate_limited', failure.message, DEFAULT_RATE_LIMIT_WAIT_SEC)
  return failure
}

/** A caller bound to the account's access token; `path` starts at `/v2/...`; answers `response`. */
export function blogClient(ctx: BlogContext): BlogCall {
  const token = credential(ctx.credentials, 'accessToken')
  return async (method, path, options = {}) => {
    const query = options.query ? `?${new URLSearchParams(options.query).toString()}` : ''
    const answer = await request(ctx.fetch, NETWORK, joinUrl(ctx.baseUrl, path) + query, {
      method,
      headers: { authorization: `Bearer ${token}`, 'user-agent': USER_AGENT },
      ...(options.json !== undefined ? { json: options.json } : {}),
      ...(options.form !== undefined ? { form: options.form } : {}),
      ...(options.body !== undefined ? { body: options.body } : {}),
    })
    if (answer.status >= 200 && answer.status < 300) return answer.body?.response ?? {}
    throw blogFailure(answer, ctx.now)
  }
}

/** The blog an account is: its uuid (stable) for calls, its name for links. */
export const blogIdOf = (credentials: Record<string, unknown>) => credential(credentials, 'blogId')
export const blogNameOf = (credentials: Record<string, unknown>) => credential(credentials, 'blogName')
export const blogPath = (credentials: Record<string, unknown>, rest: string) =>
  `/v2/blog/${encodeURIComponent(blogIdOf(credentials))}${rest}`

/**
 * Token renewal: client id and secret in the form; the answer carries a new refresh token. A
 * refresh token the endpoint no longer takes is answered 401 (or 400 `invalid_grant`).
 */
const TOKEN_RENEWAL: OAuthRenewal = {
  network: NETWORK,
  tokenPath: '/v2/oauth2/token',
  clientAuth: { idField: 'client_id', secretField: 'client_secret' },
  refreshMarginSec: REFRESH_MARGIN_SEC,
  defaultLifetimeSec: DEFAULT_TOKEN_LIFETIME_SEC,
  failure: (answer, now) => {
    const failure = blogFailure(answer, now)
    const refused = answer.status === 401 || answer.body?.error === 'invalid_grant'
    return refused ? new NetworkFailure('auth_expired', `${failure.message} (the refresh token was refused)`) : failure
  },
}

export const blogRefresh = (options: AdapterOptions): CredentialRefresh =>
  oauthRefresh(TOKEN_RENEWAL, options.clients.BLOG_NET)
