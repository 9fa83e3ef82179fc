/**
 * Hosted connect for the federated network (Mastodon and compatible servers): every server is its
 * own authorization server, so our app is registered on the owner's server at first use
 * (`POST /api/v1/apps`, remembered per server), then the authorization code flow runs there with
 * PKCE S256 (servers since 4.3 check it; earlier ones ignore it) and the client in the form body.
 * Tokens do not expire. Followed: https://docs.joinmastodon.org/client/token/,
 * https://docs.joinmastodon.org/methods/apps/, https://docs.joinmastodon.org/methods/oauth/ and
 * https://docs.joinmastodon.org/api/oauth-scopes/.
 */
import type { OAuthProvider } from '../../oauth-connect'

/** Where the app is registered on a server. */
export const FEDERATED_APPS_PATH = '/api/v1/apps'

export const FEDERATED_OAUTH: OAuthProvider = {
  platform: 'FEDERATED_NET',
  connection: 'DIRECT_LOGIN',
  docs: 'https://docs.joinmastodon.org/client/token/',
  authorize: { origin: 'instance', path: '/oauth/authorize' },
  token: { origin: 'instance', path: '/oauth/token' },
  revoke: { origin: 'instance', path: '/oauth/revoke' },
  revokes: 'access',
  // Who the account is and its followers, statuses read back for metrics, posting and media.
  scopes: ['read:accounts', 'read:statuses', 'write:statuses', 'write:media'],
  pkce: true,
  clientAuth: 'post',
  credentials: (answer, _now, instanceUrl) => ({ instanceUrl, accessToken: answer.accessToken }),
}
