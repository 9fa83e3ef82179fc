/**
 * Hosted connect for the forum network (Reddit OAuth 2, https://github.com/reddit-archive/reddit/wiki/OAuth2):
 * authorization code with `duration=permanent` (a refresh token; access tokens last an hour),
 * scopes joined with spaces, the client with HTTP Basic at the token endpoint on the www origin,
 * no PKCE (the network documents none), and the refresh token revoked on disconnect
 * (`/api/v1/revoke_token`, which ends the whole grant).
 */
import { expiresAtOf, type OAuthProvider } from '../../oauth-connect'

export const FORUM_OAUTH: OAuthProvider = {
  platform: 'FORUM_NET',
  connection: 'DIRECT_LOGIN',
  docs: 'https://github.com/reddit-archive/reddit/wiki/OAuth2',
  authorize: { origin: 'FORUM_NET_AUTHORIZE_URL', path: '/api/v1/authorize' },
  token: { origin: 'FORUM_NET_OAUTH_URL', path: '/api/v1/access_token' },
  revoke: { origin: 'FORUM_NET_OAUTH_URL', path: '/api/v1/revoke_token' },
  revokes: 'refresh',
  // Whose account (identity), submitting (submit), the subreddits to choose from (mysubreddits),
  // flair on a submission (flair), deleting one (edit), the account's submissions (history) and
  // their scores (read).
  scopes: ['identity', 'submit', 'mysubreddits', 'flair', 'edit', 'history', 'read'],
  pkce: false,
  clientAuth: 'basic',
  authorizeParams: { duration: 'permanent' },
  credentials: (answer, now) => ({
    accessToken: answer.accessToken,
    refreshToken: answer.refreshToken,
    expiresAt: expiresAtOf(answer, now),
  }),
}
