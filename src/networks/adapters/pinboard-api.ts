/**
 * The pinboard network's API v5 as the pin adapter speaks it: one authenticated call with the
 * network's error body `{ code, message }` classified, and the OAuth token refresh (HTTP Basic
 * client authentication, form body; the answer may or may not rotate the refresh token).
 */
import type { CredentialRefresh, RefreshResult } from '../adapter'
import {
  NetworkFailure,
  asFailedResult,
  credential,
  expiresWithin,
  failureOf,
  joinUrl,
  noOAuthClient,
  request,
  withRenewedTokens,
  type NetworkAnswer,
} from '../http'
import type { AdapterOptions } from './options'

export const NETWORK = 'PINBOARD_NET'
/** Renew the access token when it has less than this left (it lasts about 30 days). */
export const REFRESH_MARGIN_SEC = 24 * 3600
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
export function pinRefresh(options: AdapterOptions): CredentialRefresh {
  return {
    isDue: (credentials, now) => expiresWithin(credentials, now, REFRESH_MARGIN_SEC),
    async refresh(input): Promise<RefreshResult> {
      const client = options.clients.PINBOARD_NET
      if (!client?.clientId || !client.clientSecret) return noOAuthClient(NETWORK)
      try {
        const refreshToken = credential(input.credentials, 'refreshToken')
        const basic = btoa(`${client.clientId}:${client.clientSecret}`)
        const answer = await request(input.fetch, NETWORK, joinUrl(input.baseUrl, '/v5/oauth/token'), {
          method: 'POST',
          headers: { authorization: `Basic ${basic}` },
          form: { grant_type: 'refresh_token', refresh_token: refreshToken },
        })
        if (answer.status < 200 || answer.status >= 300 || typeof answer.body?.access_token !== 'string') {
          const failure = pinFailure(answer, input.now)
          // An unknown or revoked refresh token is answered 400 (invalid grant): the user must reconnect.
          const kind = answer.status === 400 || answer.status === 401 ? 'auth_expired' : failure.kind
          return {
            status: 'failed',
            kind,
            message: failure.message,
            ...(failure.retryAfterSec !== undefined ? { retryAfterSec: failure.retryAfterSec } : {}),
          }
        }
        // Kept when the answer carries no new one: a refresh token is never lost.
        return {
          status: 'refreshed',
          credentials: withRenewedTokens(input.credentials, answer.body, input.now, 30 * 24 * 3600),
        }
      } catch (err) {
        return asFailedResult(err, NETWORK)
      }
    },
  }
}
