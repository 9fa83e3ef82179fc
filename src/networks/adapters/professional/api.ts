/**
 * PROFESSIONAL_NET's HTTP conventions (Posts API, `/rest/*`): the headers every call carries, the
 * error body `{status, serviceErrorCode, code, message}` as a failure class, and the expired-token
 * check made before any call (normal apps get no programmatic refresh: the member reconnects).
 */
import {
  expiresWithin,
  failureOf,
  joinUrl,
  NetworkFailure,
  request,
  type NetworkAnswer,
  type RequestOptions,
} from '../../http'

export const NETWORK = 'PROFESSIONAL_NET'
/**
 * `LinkedIn-Version` (YYYYMM). Each monthly version is supported for at least a year (Marketing
 * versioning page); 202605 is documented (li-lms-2026-05 pages) and so active until about May 2027.
 * Move it forward with the API: a sunset version is refused with HTTP 426.
 */
export const API_VERSION = '202605'
export const RESTLI_PROTOCOL = '2.0.0'

/** Error `code`s the network answers with, and what the user reads. */
const CODE_MESSAGES: Record<string, string> = {
  DUPLICATE_POST: 'the network refused a duplicate of a post already published',
}
/** 403 without a more specific reason. */
const PERMISSION_HINT =
  'the token lacks the permission for this author (w_member_social, or w_organization_social with an admin role on the page): reconnect with it'

export interface Session {
  fetch: typeof fetch
  baseUrl: string
  token: string
  now: Date
}

export const headersOf = (token: string): Record<string, string> => ({
  authorization: `Bearer ${token}`,
  'linkedin-version': API_VERSION,
  'x-restli-protocol-version': RESTLI_PROTOCOL,
})

/** The access token, or auth_expired without a network call when its `expiresAt` is past. */
export function liveToken(credentials: Record<string, unknown>, now: Date): string {
  const token = credentials.accessToken
  if (typeof token !== 'string' || !token)
    throw new NetworkFailure('rejected', "The account's credentials lack accessToken: reconnect the account.")
  if (expiresWithin(credentials, now, 0))
    throw new NetworkFailure('auth_expired', `${NETWORK}: the access token expired on ${String(credentials.expiresAt)}`)
  return token
}

/**
 * The network sends no Retry-After on 429: its quotas are daily, reset at midnight UTC, so the
 * wait is until the next UTC day (at least a minute).
 */
export function untilNextUtcDay(now: Date): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1)
  return Math.max(60, Math.ceil((next - now.getTime()) / 1000))
}

export function failureFrom(answer: NetworkAnswer, now: Date): NetworkFailure {
  const body = (answer.body ?? {}) as { code?: unknown; message?: unknown; serviceErrorCode?: unknown }
  const code = typeof body.code === 'string' ? body.code : ''
  const words = typeof body.message === 'string' && body.message.trim() ? body.message.trim() : null
  if (code in CODE_MESSAGES)
    return new NetworkFailure('rejected', `${NETWORK}: ${CODE_MESSAGES[code]}${words ? ` (${words})` : ''}`)
  if (answer.status === 429) {
    const failure = failureOf(answer, NETWORK, words ?? 'daily request quota reached', now)
    return new NetworkFailure('rate_limited', failure.message, failure.retryAfterSec ?? untilNextUtcDay(now))
  }
  if (answer.status === 401)
    return new NetworkFailure('auth_expired', `${NETWORK}: ${words ?? 'the access token is no longer valid'}`)
  if (answer.status === 403)
    return new NetworkFailure('rejected', `${NETWORK}: ${words ? `${words}; ` : ''}${PERMISSION_HINT}`)
  return failureOf(answer, NETWORK, words, now)
}

/** One call to the API origin (or an absolute upload URL), every header set; a non-2xx answer throws. */
export async function call(
  session: Session,
  method: string,
  pathOrUrl: string,
  options: RequestOptions = {},
): Promise<NetworkAnswer> {
  const url = /^https?:\/\//.test(pathOrUrl) ? pathOrUrl : joinUrl(session.baseUrl, pathOrUrl)
  const answer = await request(session.fetch, NETWORK, url, {
    ...options,
    method,
    headers: { ...headersOf(session.token), ...options.headers },
  })
  if (answer.status >= 200 && answer.status < 300) return answer
  throw failureFrom(answer, session.now)
}

export const encodeUrn = (urn: string) => encodeURIComponent(urn)
export const permalinkOf = (urn: string) => `https://www.linkedin.com/feed/update/${urn}/`
