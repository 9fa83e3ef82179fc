/**
 * Google's OAuth 2.0 for web server applications, shared by the networks whose accounts sign in
 * with a Google account (the video-sharing network, the local business network): authorization
 * code with PKCE S256, offline access for a refresh token (`access_type=offline`, and
 * `prompt=consent` so a reconnect is issued one again), the client in the form body, token
 * revocation, and the renewal of an access token with the refresh token (Google keeps the refresh
 * token, so the old one stays unless a new one comes; `invalid_grant` means reconnect). What
 * differs per network is data: its platform, its configured origins and the scopes it needs.
 * Followed: https://developers.google.com/identity/protocols/oauth2/web-server (endpoints, PKCE,
 * offline access, refreshing an access token, revocation).
 */
import { oauthErrorFailure, type OAuthRenewal } from '../../oauth'
import { expiresAtOf, type OAuthProvider } from '../../oauth-connect'
import type { NetworkOriginKey } from '../../origins'
import type { PlatformId } from '../../../domain/vocabulary'

export const GOOGLE_OAUTH_DOCS = 'https://developers.google.com/identity/protocols/oauth2/web-server'
/** Paths on Google's sign-in origin (accounts.google.com) and token origin (oauth2.googleapis.com). */
export const GOOGLE_AUTHORIZE_PATH = '/o/oauth2/v2/auth'
export const GOOGLE_TOKEN_PATH = '/token'
export const GOOGLE_REVOKE_PATH = '/revoke'
/** Google access tokens last about an hour (`expires_in` 3599). */
export const GOOGLE_TOKEN_LIFETIME_SEC = 3600

export interface GoogleSignIn {
  platform: PlatformId
  /** Where the owner signs in (`<ID>_AUTHORIZE_URL`) and where tokens are issued (`<ID>_OAUTH_URL`). */
  authorizeOrigin: NetworkOriginKey
  tokenOrigin: NetworkOriginKey
  /** The scopes the adapter needs, no more. */
  scopes: readonly string[]
  /** The network's own credentials beside the tokens (a channel id...), from the token answer; {} when none. */
  extra?: (answer: Parameters<OAuthProvider['credentials']>[0]) => Record<string, unknown>
}

/** The hosted-connect settings of a network that signs in with a Google account. */
export function googleOAuthProvider(signIn: GoogleSignIn): OAuthProvider {
  return {
    platform: signIn.platform,
    connection: 'DIRECT_LOGIN',
    docs: GOOGLE_OAUTH_DOCS,
    authorize: { origin: signIn.authorizeOrigin, path: GOOGLE_AUTHORIZE_PATH },
    token: { origin: signIn.tokenOrigin, path: GOOGLE_TOKEN_PATH },
    revoke: { origin: signIn.tokenOrigin, path: GOOGLE_REVOKE_PATH },
    scopes: signIn.scopes,
    pkce: true,
    clientAuth: 'post',
    authorizeParams: { access_type: 'offline', prompt: 'consent' },
    credentials: (answer, now) => ({
      accessToken: answer.accessToken,
      refreshToken: answer.refreshToken,
      expiresAt: expiresAtOf(answer, now),
      ...signIn.extra?.(answer),
    }),
  }
}

/**
 * Renewal of a Google access token at the token origin, `refreshMarginSec` before it ends: the
 * client's id and secret in the form, the refresh token kept unless Google sends a new one.
 */
export function googleTokenRenewal(network: string, tokenOrigin: string, refreshMarginSec: number): OAuthRenewal {
  return {
    network,
    tokenPath: GOOGLE_TOKEN_PATH,
    tokenOrigin,
    clientAuth: { idField: 'client_id', secretField: 'client_secret' },
    refreshMarginSec,
    defaultLifetimeSec: GOOGLE_TOKEN_LIFETIME_SEC,
    failure: oauthErrorFailure(network),
  }
}
