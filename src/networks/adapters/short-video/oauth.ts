/**
 * Hosted connect for the short-video network (TikTok Login Kit for Web, API v2): authorization
 * code, the client named `client_key` in the authorization request and the token and revocation
 * forms, scopes joined with commas, the account's `open_id` in the token answer. The web flow's
 * documentation asks for no PKCE, so none is sent. Followed:
 * https://developers.tiktok.com/doc/login-kit-web/ and
 * https://developers.tiktok.com/doc/oauth-user-access-token-management/ (token, refresh, revoke).
 */
import { expiresAtOf, type OAuthProvider } from '../../oauth-connect'

export const SHORTVIDEO_OAUTH: OAuthProvider = {
  platform: 'SHORTVIDEO_NET',
  connection: 'DIRECT_LOGIN',
  docs: 'https://developers.tiktok.com/doc/login-kit-web/',
  authorize: { origin: 'SHORTVIDEO_NET_AUTHORIZE_URL', path: '/v2/auth/authorize/' },
  token: { origin: 'SHORTVIDEO_NET_API_URL', path: '/v2/oauth/token/' },
  revoke: { origin: 'SHORTVIDEO_NET_API_URL', path: '/v2/oauth/revoke/' },
  revokes: 'access',
  // Reading who the account is, and posting videos and photos directly (no insights: not approved).
  scopes: ['user.info.basic', 'video.publish'],
  scopeSeparator: ',',
  pkce: false,
  clientAuth: { idField: 'client_key', secretField: 'client_secret' },
  clientIdParam: 'client_key',
  credentials: (answer, now) => ({
    accessToken: answer.accessToken,
    refreshToken: answer.refreshToken,
    expiresAt: expiresAtOf(answer, now),
    openId: typeof answer.extra.open_id === 'string' ? answer.extra.open_id : undefined,
  }),
}
