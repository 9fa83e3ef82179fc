/**
 * The shape of a network's hosted-connect OAuth settings (`OAuthProvider`, declared as data in
 * `adapters/<network>/oauth.ts`), its endpoints, what its token endpoint answered (`TokenAnswer`)
 * and the context a connect runs in (`OAuthContext`); `expiresAtOf` for the providers' credentials.
 */
import type { Connection, PlatformId } from '../domain/vocabulary'
import type { OAuthClient } from './oauth'
import type { NetworkOriginKey, NetworkOrigins } from './origins'

/**
 * An endpoint: the configured origin (`<KEY>` in the configuration) and the path on it, or
 * `instance`: the account owner's own server (the federated network).
 */
export interface OAuthEndpoint {
  origin: NetworkOriginKey | 'instance'
  path: string
}

/** What a token endpoint answered, as the provider data reads it. */
export interface TokenAnswer {
  accessToken: string
  refreshToken: string | null
  /** Seconds, when the network said. */
  expiresIn: number | null
  /** Everything else in the answer (ids some networks return with the token). */
  extra: Record<string, unknown>
}

export interface OAuthProvider {
  platform: PlatformId
  /** The connection an account made through this flow has. */
  connection: Connection
  /** The documentation page these settings follow. */
  docs: string
  authorize: OAuthEndpoint
  token: OAuthEndpoint
  /** Where a token is revoked on disconnect; absent when the network documents none. */
  revoke?: OAuthEndpoint
  /** Which token the revocation endpoint takes: the refresh token (all of the grant; default) or the access token. */
  revokes?: 'refresh' | 'access'
  /** The scopes the adapter needs, no more. */
  scopes: readonly string[]
  /** How the scopes are joined in the authorization URL (space by default). */
  scopeSeparator?: string
  /** PKCE with S256. */
  pkce: boolean
  /**
   * How the client proves itself at the token (and revocation) endpoint: HTTP Basic, RFC 6749's
   * `client_id` / `client_secret` form fields, or form fields under the network's own names.
   */
  clientAuth: 'basic' | 'post' | { idField: string; secretField: string }
  /** The authorization request's name for the client id, where the network does not say `client_id`. */
  clientIdParam?: string
  /**
   * Where the network trades the code's short-lived token for a long-lived one (Meta's
   * `fb_exchange_token`, `th_exchange_token`): a GET with the grant type, the client's secret (and
   * id, where asked) and the token under `tokenParam`; its answer replaces the first one's token.
   */
  longLived?: { endpoint: OAuthEndpoint; grantType: string; tokenParam: string; sendClientId: boolean }
  /** More parameters of the authorization request (offline access, consent prompt...). */
  authorizeParams?: Record<string, string>
  /**
   * A token endpoint answering outside RFC 6749 (an error as HTTP 200 with `ok:false`, a token type
   * of its own) rewritten to its standard shape before it is read; absent: read as sent.
   */
  tokenAnswer?(status: number, body: Record<string, unknown>): { status: number; body: Record<string, unknown> }
  /**
   * The credentials to verify and store, from the token answer (`expiresAt` as an ISO time when
   * known); `instanceUrl`: the owner's server, for the federated network.
   */
  credentials(answer: TokenAnswer, now: Date, instanceUrl: string | null): Record<string, unknown>
}

export interface OAuthContext {
  origins: NetworkOrigins
  client: OAuthClient
  fetch: typeof fetch
  /** Plain http endpoints (loopback fakes, local trials): ALLOW_PRIVATE_URLS only. */
  allowHttp: boolean
  /** The owner's own server, for endpoints at `instance`. */
  instanceUrl?: string | null
}

/** `expiresAt` from a token answer's lifetime, when it gave one. */
export const expiresAtOf = (answer: TokenAnswer, now: Date): string | undefined =>
  answer.expiresIn === null ? undefined : new Date(now.getTime() + answer.expiresIn * 1000).toISOString()
