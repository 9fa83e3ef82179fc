/**
 * Hosted connect for the blog network (Tumblr's OAuth 2): the owner approves on
 * `www.tumblr.com/oauth2/authorize` (scopes space-separated: `basic` to read the member's blogs,
 * `write` to post, `offline_access` for a refresh token), and the code is traded at
 * `api.tumblr.com/v2/oauth2/token` with the client's id and secret in the form. The reference
 * documents no PKCE and no revocation endpoint, so neither is used (a disconnect wipes our copy;
 * the owner removes the app in the network's settings). Followed:
 * https://www.tumblr.com/docs/en/api/v2#oauth2-authorization
 */
import { expiresAtOf, type OAuthProvider } from '../../oauth-connect'

export const BLOG_OAUTH: OAuthProvider = {
  platform: 'BLOG_NET',
  connection: 'DIRECT_LOGIN',
  docs: 'https://www.tumblr.com/docs/en/api/v2#oauth2-authorization',
  authorize: { origin: 'BLOG_NET_AUTHORIZE_URL', path: '/oauth2/authorize' },
  token: { origin: 'BLOG_NET_API_URL', path: '/v2/oauth2/token' },
  scopes: ['basic', 'write', 'offline_access'],
  pkce: false,
  clientAuth: 'post',
  // The blog is chosen after sign-in (listIdentities adds blogId and blogName).
  credentials: (answer, now) => ({
    accessToken: answer.accessToken,
    refreshToken: answer.refreshToken,
    expiresAt: expiresAtOf(answer, now),
  }),
}
