/**
 * Hosted connect for sites hosted by WordPress.com (https://developer.wordpress.com/docs/oauth2/):
 * the authorization code flow at `/oauth2/authorize` and `/oauth2/token` on its API origin, the
 * client in the form body, no PKCE, and the `global` scope so that every site of the user can be
 * offered in the identity chooser (the default scope grants one site chosen on the consent page).
 * The token answer has no refresh token and no lifetime; the documentation describes no
 * revocation endpoint (the owner removes the app under their account's connected applications).
 */
import type { OAuthProvider } from '../../oauth-connect'

export const SITE_OAUTH: OAuthProvider = {
  platform: 'SITE_NET',
  connection: 'DIRECT_LOGIN',
  docs: 'https://developer.wordpress.com/docs/oauth2/',
  authorize: { origin: 'SITE_NET_AUTHORIZE_URL', path: '/oauth2/authorize' },
  token: { origin: 'SITE_NET_API_URL', path: '/oauth2/token' },
  scopes: ['global'],
  pkce: false,
  clientAuth: 'post',
  credentials: (answer) => ({
    accessToken: answer.accessToken,
    ...(answer.extra.blog_id !== undefined && String(answer.extra.blog_id) !== '0'
      ? { siteId: String(answer.extra.blog_id) }
      : {}),
  }),
}
