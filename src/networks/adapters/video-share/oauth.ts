/**
 * Hosted connect for the video-sharing network (YouTube Data API through Google's OAuth 2.0 for
 * web server applications): authorization code with PKCE S256, offline access for a refresh
 * token (`access_type=offline`, `prompt=consent` so one is issued again on a reconnect), the
 * client in the form body. Followed: https://developers.google.com/identity/protocols/oauth2/web-server
 * (endpoints, PKCE, offline access, revocation) and the scopes of
 * https://developers.google.com/youtube/v3/guides/auth/server-side-web-apps.
 */
import { expiresAtOf, type OAuthProvider } from '../../oauth-connect'

export const VIDEOSHARE_OAUTH: OAuthProvider = {
  platform: 'VIDEOSHARE_NET',
  connection: 'DIRECT_LOGIN',
  docs: 'https://developers.google.com/identity/protocols/oauth2/web-server',
  authorize: { origin: 'VIDEOSHARE_NET_AUTHORIZE_URL', path: '/o/oauth2/v2/auth' },
  token: { origin: 'VIDEOSHARE_NET_OAUTH_URL', path: '/token' },
  revoke: { origin: 'VIDEOSHARE_NET_OAUTH_URL', path: '/revoke' },
  // Uploading videos, and reading the channel (identity, statistics).
  scopes: ['https://www.googleapis.com/auth/youtube.upload', 'https://www.googleapis.com/auth/youtube.readonly'],
  pkce: true,
  clientAuth: 'post',
  authorizeParams: { access_type: 'offline', prompt: 'consent' },
  credentials: (answer, now) => ({
    accessToken: answer.accessToken,
    refreshToken: answer.refreshToken,
    expiresAt: expiresAtOf(answer, now),
  }),
}
