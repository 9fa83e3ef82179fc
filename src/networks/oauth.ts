/**
 * OAuth 2.0 token renewal (the `refresh_token` grant) for the networks whose access tokens expire
 * and are renewed with this service's registered client. The steps are the same everywhere: post
 * the refresh token to the token endpoint, store the new access token and its expiry, keep the
 * refresh token unless the network rotated it, and ask for a reconnect when the network no longer
 * takes it or when this service has no client for the network. What differs (the endpoint, how the
 * client authenticates, field names, the assumed lifetime, how the endpoint says no) is data each
 * adapter declares at its top.
 */
import type { CredentialRefresh, RefreshResult } from './adapter'
import {
  asFailedResult,
  credential,
  expiresAtFrom,
  expiresWithin,
  joinUrl,
  NetworkFailure,
  request,
  type NetworkAnswer,
} from './http'

/** This service's client at a network, as configured (`<network>_CLIENT_ID` / `_CLIENT_SECRET`). */
export interface OAuthClient {
  clientId: string
  clientSecret: string | null
  /**
   * The User-Agent this service names itself with at the network (`<network>_USER_AGENT`), sent on
   * every call to it where set; some networks ask for a descriptive one and throttle generic ones.
   */
  userAgent?: string | null
}

export interface OAuthRenewal {
  /** The network's name in messages, and the prefix of its client's configuration keys. */
  network: string
  /** The token endpoint: a path on the account's API origin, or on `tokenOrigin` when the network has a separate one. */
  tokenPath: string
  tokenOrigin?: string
  /**
   * How the client proves itself: `basic` sends `Authorization: Basic id:secret` (when there is a
   * secret); `idField` / `secretField` put the id / secret in the form under the network's names.
   * `secretOptional`: a public client (no secret) may renew too.
   */
  clientAuth: { basic?: boolean; idField?: string; secretField?: string; secretOptional?: boolean }
  /** Renew when the token has less than this left. */
  refreshMarginSec: number
  /** What a new token is taken to last when the answer gives no usable `expires_in`. */
  defaultLifetimeSec: number
  /** The one status a renewal succeeds with, where the network documents only that one (else any 2xx). */
  successStatus?: number
  /** How the endpoint says no, in its own words; a refresh token it no longer takes is `auth_expired`. */
  failure(answer: NetworkAnswer, now: Date): NetworkFailure
}

/**
 * Credentials after an OAuth token answer: the new access token and its expiry, and the new
 * refresh token when the network rotated it, else the one we had (a refresh token is never lost).
 */
export function withRenewedTokens(
  credentials: Record<string, unknown>,
  body: { access_token: string; refresh_token?: unknown; expires_in?: unknown },
  now: Date,
  defaultLifetimeSec: number,
): Record<string, unknown> {
  const lifetime = Number(body.expires_in)
  return {
    ...credentials,
    accessToken: body.access_token,
    refreshToken:
      typeof body.refresh_token === 'string' && body.refresh_token ? body.refresh_token : credentials.refreshToken,
    expiresAt: expiresAtFrom(now, Number.isFinite(lifetime) && lifetime > 0 ? lifetime : defaultLifetimeSec),
  }
}

/**
 * A renewal this service cannot make: its OAuth client for the network is not configured. The
 * account must be reconnected (or the client configured).
 */
export const noOAuthClient = (platform: string): RefreshResult => ({
  status: 'failed',
  kind: 'auth_expired',
  message: `${platform}: this service has no OAuth client configured (${platform}_CLIENT_ID / ${platform}_CLIENT_SECRET), so the token cannot be renewed`,
})

/**
 * The failure of an RFC 6749 token error answer (`{ error, error_description }`): `invalid_grant`,
 * or one of `refusedStatuses`, means the refresh token is no longer taken; a 5xx is worth a retry;
 * anything else is a refusal in the endpoint's words.
 */
export function oauthErrorFailure(
  network: string,
  refusedStatuses: readonly number[] = [],
): (answer: NetworkAnswer) => NetworkFailure {
  return (answer) => {
    const body = answer.body ?? {}
    const code = typeof body.error === 'string' ? body.error : null
    const words =
      typeof body.error_description === 'string' && body.error_description
        ? body.error_description
        : (code ?? `HTTP ${answer.status}`)
    if (code === 'invalid_grant' || refusedStatuses.includes(answer.status))
      return new NetworkFailure('auth_expired', `${network}: the refresh token was refused (${words})`)
    return new NetworkFailure(
      answer.status >= 500 ? 'transient' : 'rejected',
      `${network}: token refresh failed (${words})`,
    )
  }
}

/** Renewal of the account's tokens with this service's client; due `refreshMarginSec` before expiry. */
export function oauthRefresh(rules: OAuthRenewal, client: OAuthClient | undefined): CredentialRefresh {
  return {
    isDue: (credentials, now) => expiresWithin(credentials, now, rules.refreshMarginSec),
    async refresh(input) {
      const { clientAuth } = rules
      if (!client?.clientId || (!client.clientSecret && !clientAuth.secretOptional)) return noOAuthClient(rules.network)
      try {
        const form: Record<string, string> = {
          grant_type: 'refresh_token',
          refresh_token: credential(input.credentials, 'refreshToken'),
        }
        if (clientAuth.idField) form[clientAuth.idField] = client.clientId
        if (clientAuth.secretField && client.clientSecret) form[clientAuth.secretField] = client.clientSecret
        const headers: Record<string, string> = {}
        if (client.userAgent) headers['user-agent'] = client.userAgent
        if (clientAuth.basic && client.clientSecret)
          headers.authorization = `Basic ${btoa(`${client.clientId}:${client.clientSecret}`)}`
        const url = joinUrl(rules.tokenOrigin ?? input.baseUrl, rules.tokenPath)
        const answer = await request(input.fetch, rules.network, url, { method: 'POST', headers, form })
        const succeeded = rules.successStatus
          ? answer.status === rules.successStatus
          : answer.status >= 200 && answer.status < 300
        if (succeeded && typeof answer.body?.access_token === 'string')
          return {
            status: 'refreshed',
            credentials: withRenewedTokens(input.credentials, answer.body, input.now, rules.defaultLifetimeSec),
          }
        return asFailedResult(rules.failure(answer, input.now))
      } catch (err) {
        return asFailedResult(err)
      }
    },
  }
}
