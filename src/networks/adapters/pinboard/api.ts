/**
 * The pinboard network's API v5 as the pin adapter speaks it: one authenticated call with the
 * network's error body `{ code, message }` classified, and the OAuth token refresh (HTTP Basic
 * client authentication, form body; the answer may or may not rotate the refresh token).
 */
import type { CredentialRefresh } from '../../adapter'
import { NetworkFailure, credential, failureOf, joinUrl, request, type NetworkAnswer } from '../../http'
import { oauthRefresh, type OAuthRenewal } from '../../oauth'
import type { AdapterOptions } from '../options'

export const NETWORK = 'PINBOARD_NET'
/** Renew the access token when it has less than this left (it lasts about 30 days). */
export const REFRESH_MARGIN_SEC = 24 * 3600
/**
 * Token renewal: the client authenticates with HTTP Basic; the answer may or may not rotate the
 * refresh token. An unknown or revoked refresh token is answered 400 (invalid grant) or 401.
 */
const TOKEN_RENEWAL: OAuthRenewal = {
  network: NETWORK,
  tokenPath: '/v5/oauth/token',
  clientAuth: { basic: true },
  refreshMarginSec: REFRESH_MARGIN_SEC,
  defaultLifetimeSec: 30 * 24 * 3600,
  failure: (answer, now) => {
    const failure = pinFailure(answer, now)
    const refused = answer.status === 400 || answer.status === 401
    return refused ? new NetworkFailure('auth_expired', failure.message) : failure
  },
}
/** The wait after a 429 when the answer names none (the network documents no reset header). */
export const DEFAULT_RATE_LIMIT_WAIT_SEC = 60
/** Where a pin lives on the network's site. */
export const PIN_URL = (id: string) => `https://www.pinterest.com/pin/${encodeURIComponent(id)}/`

export interface PinContext {
  fetch: typeof fetch
  baseUrl: string
  now: Date
  credentials: Record<string, unknown>
}

export type PinCall = (
  method: string,
  path: string,
  options?: { query?: Record<string, string>; json?: unknown },
) => Promise<any>

/** The failure an answer stands for, in the network's words; a 429 always carries a wait. */
export function pinFailure(answer: NetworkAnswer, now: Date): NetworkFailure {
  const body = answer.body && typeof answer.body === 'object' ? answer.body : {}
  const words =
    typeof body.message === 'string'
      ? body.message
      : typeof body.error_description === 'string'
        ? body.error_description
        : null
  const failure = failureOf(answer, NETWORK, words, now)
  if (failure.kind === 'rate_limited' && failure.retryAfterSec === undefined)
    return new NetworkFailure('rate_limited', failure.message, DEFAULT_RATE_LIMIT_WAIT_SEC)
  return failure
}

/** A caller bound to the account's access token; `path` starts at `/v5/...`. */
export function pinClient(ctx: PinContext): PinCall {
  const token = credential(ctx.credentials, 'accessToken')
  return async (method, path, options = {}) => {
    const query = options.query ? `?${new URLSearchParams(options.query).toString()}` : ''
    const answer = await request(ctx.fetch, NETWORK, joinUrl(ctx.baseUrl, path) + query, {
      method,
      headers: { authorization: `Bearer ${token}` },
      ...(options.json !== undefined ? { json: options.json } : {}),
    })
    if (answer.status >= 200 && answer.status < 300) return answer.body ?? {}
    throw pinFailure(answer, ctx.now)
  }
}

/** Token renewal: due a day before expiry; needs this service's client id and secret. */
export const pinRefresh = (options: AdapterOptions): CredentialRefresh =>
  oauthRefresh(TOKEN_RENEWAL, options.clients.PINBOARD_NET)
