/**
 * The community network's transport (Lemmy HTTP API v3, on the account's own instance): one call
 * with the session token as `Authorization: Bearer`, and the server's error body `{ "error":
 * "<code>" }` classified by its code. The code matters more than the status: Lemmy 0.19 answers
 * most refusals with 400 (a refused or missing session is `not_logged_in` with 400, its rate
 * limiter `rate_limit_error` with 400 too); only `incorrect_login` is 401, and a row not found 404.
 */
import type { FailureKind } from '../../adapter'
import { joinUrl, NetworkFailure, request, retryAfterSec, type RequestOptions } from '../../http'

export const NETWORK = 'COMMUNITY_NET'

/** Error codes -> failure class; a code not listed falls back to the HTTP status. */
const ERROR_KINDS: Record<string, FailureKind> = {
  not_logged_in: 'auth_expired',
  incorrect_login: 'auth_expired',
  rate_limit_error: 'rate_limited',
  couldnt_find_community: 'rejected',
  invalid_post_title: 'rejected',
  post_title_too_long: 'rejected',
  invalid_body_field: 'rejected',
  alt_text_length_overflow: 'rejected',
  url_length_overflow: 'rejected',
  invalid_url: 'rejected',
  invalid_url_scheme: 'rejected',
  blocked_url: 'rejected',
  slurs: 'rejected',
  banned_from_community: 'rejected',
  person_is_banned_from_site: 'rejected',
  site_ban: 'rejected',
  only_mods_can_post_in_community: 'rejected',
  cannot_create_post_or_comment_in_deleted_or_removed_community: 'rejected',
  language_not_allowed: 'rejected',
  not_an_image_type: 'rejected',
  couldnt_find_post: 'rejected',
  email_not_verified: 'rejected',
  missing_totp_token: 'rejected',
  incorrect_totp_token: 'rejected',
  // The database refused the insert: nothing was made, and the next try may go through.
  couldnt_create_post: 'transient',
  pictrs_response_error: 'transient',
}

/** What some codes mean, in words the user can act on (the code itself is kept beside them). */
const ERROR_WORDS: Record<string, string> = {
  not_logged_in: 'the instance no longer accepts this session',
  incorrect_login: 'wrong username or password',
  rate_limit_error: "the instance's rate limit was reached",
  couldnt_find_community: 'the community does not exist on this instance',
  invalid_post_title: 'the title must be 3 to 200 characters on one line',
  only_mods_can_post_in_community: 'only moderators may post in this community',
  banned_from_community: 'the account is banned from this community',
  language_not_allowed: 'the community does not allow this language',
  missing_totp_token: 'the account has two-factor authentication: enter the code from your app',
  incorrect_totp_token: 'the two-factor code was not accepted',
  email_not_verified: 'the account has not verified its email address yet',
}

/** A `NetworkFailure` that keeps the server's error code. */
export class CommunityFailure extends NetworkFailure {
  constructor(
    kind: FailureKind,
    message: string,
    readonly code: string | null,
    retryAfter?: number,
  ) {
    super(kind, message, retryAfter)
  }
}

export const isCode = (err: unknown, ...codes: string[]): boolean =>
  err instanceof CommunityFailure && err.code !== null && codes.includes(err.code)

export interface CallContext {
  fetch: typeof fetch
  baseUrl: string
  now: Date
  /** The session token; null for the login call. */
  jwt: string | null
}

export interface Call extends Omit<RequestOptions, 'headers'> {
  query?: Record<string, string | number>
}

/** `{instance}/api/v3/{path}`; returns the JSON body, throws a classified `CommunityFailure`. */
export async function lemmy(ctx: CallContext, path: string, call: Call = {}): Promise<any> {
  const { query, ...options } = call
  const params = new URLSearchParams(Object.entries(query ?? {}).map(([k, v]) => [k, String(v)]))
  const url = joinUrl(ctx.baseUrl, `api/v3/${path}`) + (params.size ? `?${params}` : '')
  const answer = await request(ctx.fetch, NETWORK, url, {
    ...options,
    headers: ctx.jwt ? { authorization: `Bearer ${ctx.jwt}` } : {},
  })
  if (answer.status >= 200 && answer.status < 300) return answer.body ?? {}
  throw failureFrom(answer.status, answer.body, answer.headers, ctx.now)
}

/** A failure answer as a classified failure: by the error code first, then by the status. */
export function failureFrom(status: number, body: unknown, headers: Headers, now: Date): CommunityFailure {
  const code = typeof (body as any)?.error === 'string' ? ((body as any).error as string) : null
  let kind: FailureKind = (code ? ERROR_KINDS[code] : undefined) ?? 'rejected'
  if (!code || !(code in ERROR_KINDS)) {
    if (status === 401) kind = 'auth_expired'
    if (status === 429) kind = 'rate_limited'
    if (status >= 500 || status === 408) kind = 'transient'
  }
  // A proxy in front of the instance may still say 429 or 5xx over any body.
  if (status === 429) kind = 'rate_limited'
  if (status >= 500) kind = 'transient'
  const words = code ? (ERROR_WORDS[code] ? `${ERROR_WORDS[code]} (${code})` : code) : `HTTP ${status}`
  const wait = kind === 'rate_limited' || kind === 'transient' ? retryAfterSec(headers, now) : undefined
  return new CommunityFailure(kind, `${NETWORK}: ${words}`, code, wait)
}
