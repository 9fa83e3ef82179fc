/**
 * The forum network's API (Reddit, https://www.reddit.com/dev/api) as the adapter speaks it: one
 * authenticated call on `oauth.reddit.com` with the descriptive User-Agent the network's API rules
 * ask for, its rate-limit headers honoured (X-Ratelimit-Remaining / X-Ratelimit-Reset: a spent
 * budget stops the flow before the next call, a 429 waits for the reset), its `json.errors` lists
 * classified, and the token renewal (HTTP Basic client authentication on the www origin; access
 * tokens last an hour, the refresh token of a `permanent` grant does not expire).
 */
import type { CredentialRefresh } from '../../adapter'
import { NetworkFailure, credential, errorWords, failureOf, joinUrl, request, type NetworkAnswer } from '../../http'
import { oauthErrorFailure, oauthRefresh, type OAuthRenewal } from '../../oauth'
import type { AdapterOptions } from '../options'

export const NETWORK = 'FORUM_NET'
/**
 * The User-Agent when `FORUM_NET_USER_AGENT` is unset. The network asks for
 * `<platform>:<app ID>:<version> (by /u/<developer>)`; the operator configures the real one.
 */
export const DEFAULT_USER_AGENT = 'server:social-publishing-service:v1.0'
/** Renew the access token when it has less than this left (it lasts an hour). */
export const REFRESH_MARGIN_SEC = 5 * 60
export const ACCESS_TOKEN_LIFETIME_SEC = 3600
/** The wait after a 429, or a spent budget, when the answer names no reset. */
export const DEFAULT_RATE_LIMIT_WAIT_SEC = 60
/** Where a submission lives on the network's site, from its `permalink` path. */
export const SITE = 'https://www.reddit.com'

/**
 * The `json.errors` codes the adapter tells apart (each entry `[code, message, field]`); any other
 * code is a refusal in the network's words. `USER_REQUIRED` means the token no longer acts as a user.
 */
export const ERROR_KINDS: Record<string, 'rejected' | 'auth_expired' | 'rate_limited'> = {
  RATELIMIT: 'rate_limited',
  USER_REQUIRED: 'auth_expired',
  SUBREDDIT_NOEXIST: 'rejected',
  SUBREDDIT_NOTALLOWED: 'rejected',
  SUBREDDIT_REQUIRED: 'rejected',
  NO_SELFS: 'rejected',
  NO_LINKS: 'rejected',
  TOO_LONG: 'rejected',
  NO_TEXT: 'rejected',
  BAD_URL: 'rejected',
  ALREADY_SUB: 'rejected',
  SUBMIT_VALIDATION_FLAIR_REQUIRED: 'rejected',
}

/**
 * Token renewal: HTTP Basic with the client id and secret, `grant_type=refresh_token`. The network
 * answers a refresh token it no longer takes with `invalid_grant` (sometimes with HTTP 200) or 400/401.
 */
const TOKEN_RENEWAL: OAuthRenewal = {
  network: NETWORK,
  tokenPath: '/api/v1/access_token',
  clientAuth: { basic: true },
  refreshMarginSec: REFRESH_MARGIN_SEC,
  defaultLifetimeSec: ACCESS_TOKEN_LIFETIME_SEC,
  failure: oauthErrorFailure(NETWORK, [400, 401]),
}

export const forumRefresh = (options: AdapterOptions): CredentialRefresh =>
  oauthRefresh(
    { ...TOKEN_RENEWAL, tokenOrigin: options.origins.FORUM_NET_OAUTH_URL },
    options.clients.FORUM_NET ? { ...options.clients.FORUM_NET, userAgent: userAgentOf(options) } : undefined,
  )

/** The configured User-Agent, else the default. */
export const userAgentOf = (options: AdapterOptions): string =>
  options.clients.FORUM_NET?.userAgent || DEFAULT_USER_AGENT

export interface ForumContext {
  fetch: typeof fetch
  baseUrl: string
  now: Date
  credentials: Record<string, unknown>
}

export interface CallOptions {
  query?: Record<string, string>
  form?: Record<string, string>
  json?: unknown
}

export type ForumCall = (method: string, path: string, options?: CallOptions) => Promise<any>

/** Seconds until the network's rate-limit window resets, from `X-Ratelimit-Reset` (seconds). */
function resetSec(headers: Headers): number | undefined {
  const n = Number(headers.get('x-ratelimit-reset'))
  return headers.has('x-ratelimit-reset') && Number.isFinite(n) && n >= 0 ? Math.ceil(n) : undefined
}

/** The failure a non-2xx answer stands for; a 429 always carries a wait. */
export function forumFailure(answer: NetworkAnswer, now: Date): NetworkFailure {
  const failure = failureOf(answer, NETWORK, errorWords(answer.body), now)
  if (failure.kind === 'rate_limited')
    return new NetworkFailure('rate_limited', failure.message, failure.retryAfterSec ?? DEFAULT_RATE_LIMIT_WAIT_SEC)
  if (answer.status === 403)
    return new NetworkFailure('rejected', `${failure.message} (the account may not post there, or is suspended)`)
  return failure
}

/** The wait a `RATELIMIT` error names: its `ratelimit` seconds, else "N minutes/seconds" in its words. */
function ratelimitWait(message: string, seconds: unknown): number {
  if (typeof seconds === 'number' && seconds > 0) return Math.ceil(seconds)
  const m = /(\d+)\s*(minute|second|millisecond)/i.exec(message)
  if (!m) return DEFAULT_RATE_LIMIT_WAIT_SEC
  const n = Number(m[1])
  const unit = m[2]!.toLowerCase()
  return unit === 'minute' ? n * 60 : unit === 'second' ? n : Math.ceil(n / 1000)
}

/** The failure of a `json.errors` list (`[[code, message, field], ...]`), or null when it is empty. */
export function errorsFailure(json: Record<string, any> | undefined): NetworkFailure | null {
  const errors: unknown[] = Array.isArray(json?.errors) ? json!.errors : []
  const first = errors.find((e): e is unknown[] => Array.isArray(e) && typeof e[0] === 'string')
  if (!first) return null
  const code = String(first[0])
  const words = typeof first[1] === 'string' && first[1] ? first[1] : code
  const field = typeof first[2] === 'string' && first[2] ? ` (${first[2]})` : ''
  const message = `${NETWORK}: ${code}: ${words}${field}`
  const kind = ERROR_KINDS[code] ?? 'rejected'
  if (kind === 'rate_limited') return new NetworkFailure(kind, message, ratelimitWait(words, json?.ratelimit))
  return new NetworkFailure(kind, message)
}

/**
 * A caller bound to the account's access token, sending the User-Agent on every call. It keeps the
 * budget the last answer reported: when `X-Ratelimit-Remaining` reaches 0, the next call is not
 * made but fails `rate_limited` until the reported reset.
 */
export function forumClient(ctx: ForumContext, userAgent: string): ForumCall {
  const token = credential(ctx.credentials, 'accessToken')
  let spentUntil: number | null = null
  return async (method, path, options = {}) => {
    if (spentUntil !== null && spentUntil > ctx.now.getTime())
      throw new NetworkFailure(
        'rate_limited',
        `${NETWORK}: the rate-limit budget is spent until its reset.`,
        Math.ceil((spentUntil - ctx.now.getTime()) / 1000),
      )
    const query = options.query ? `?${new URLSearchParams(options.query).toString()}` : ''
    const answer = await request(ctx.fetch, NETWORK, joinUrl(ctx.baseUrl, path) + query, {
      method,
      headers: { authorization: `Bearer ${token}`, 'user-agent': userAgent },
      ...(options.form !== undefined ? { form: options.form } : {}),
      ...(options.json !== undefined ? { json: options.json } : {}),
    })
    const remaining = Number(answer.headers.get('x-ratelimit-remaining'))
    if (answer.headers.has('x-ratelimit-remaining') && Number.isFinite(remaining) && remaining < 1)
      spentUntil = ctx.now.getTime() + (resetSec(answer.headers) ?? DEFAULT_RATE_LIMIT_WAIT_SEC) * 1000
    if (answer.status < 200 || answer.status >= 300) throw forumFailure(answer, ctx.now)
    const body = answer.body ?? {}
    const failure = errorsFailure(body.json)
    if (failure) throw failure
    return body
  }
}

/** The `data` of each child of a Listing (`{ kind: 'Listing', data: { after, children } }`). */
export function listingOf(body: any): { items: Array<Record<string, any>>; after: string | null } {
  const data = body?.data ?? {}
  const children: any[] = Array.isArray(data.children) ? data.children : []
  return {
    items: children.map((c) => (c && typeof c.data === 'object' ? c.data : {})),
    after: typeof data.after === 'string' && data.after ? data.after : null,
  }
}
