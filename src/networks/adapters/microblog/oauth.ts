/**
 * Hosted connect for the microblog network (X API v2): OAuth 2.0 authorization code with PKCE
 * (required there), a confidential client authenticating with HTTP Basic, `offline.access` for a
 * refresh token. Followed: https://docs.x.com/fundamentals/authentication/oauth-2-0/user-access-token
 * and .../oauth-2-0/authorization-code (scopes, refresh tokens, revocation).
 */
import { expiresAtOf, type OAuthProvider } from '../../oauth-connect'

export const MICROBLOG_OAUTH: OAuthProvider = {
  platform: 'MICROBLOG_NET',
  connection: 'DIRECT_LOGIN',
  docs: 'https://docs.x.com/fundamentals/authentication/oauth-2-0/user-access-token',
  authorize: { origin: 'MICROBLOG_NET_AUTHORIZE_URL', path: '/i/oauth2/authorize' },
  token: { origin: 'MICROBLOG_NET_API_URL', path: '/2/oauth2/token' },
  revoke: { origin: 'MICROBLOG_NET_API_URL', path: '/2/oauth2/revoke' },
  // Posting, media upload (v2), reading the user (identity, metrics), and a refresh token.
  scopes: ['tweet.read', 'tweet.write', 'users.read', 'media.write', 'offline.access'],
  pkce: true,
  clientAuth: 'basic',
  credentials: (answer, now) => ({
    accessToken: answer.accessToken,
    refreshToken: answer.refreshToken,
    expiresAt: expiresAtOf(answer, now),
  }),
}
