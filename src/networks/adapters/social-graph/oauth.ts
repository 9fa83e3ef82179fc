/**
 * Hosted connect for the page network (Facebook Pages) through Facebook Login: the authorization
 * code is exchanged for a user token (client in the form body), which is traded at once for a
 * long-lived one (`fb_exchange_token`); the Pages it manages come from `/me/accounts`, each with a
 * Page token that does not expire, and the owner chooses which Pages to connect. Facebook documents
 * no RFC 7009 revocation (its `DELETE /me/permissions` removes the whole login), so a disconnect
 * wipes our copy only. PKCE is not sent: the manual web flow's page documents none. Followed:
 * https://developers.facebook.com/docs/facebook-login/guides/advanced/manual-flow/,
 * https://developers.facebook.com/docs/facebook-login/guides/access-tokens/get-long-lived/ and
 * https://developers.facebook.com/docs/pages-api/getting-started/ (scopes, `/me/accounts`).
 */
import { expiresAtOf, type OAuthProvider } from '../../oauth-connect'
import { GRAPH_VERSION } from './api'

export const SOCIALGRAPH_OAUTH: OAuthProvider = {
  platform: 'SOCIALGRAPH_NET',
  connection: 'DIRECT_LOGIN',
  docs: 'https://developers.facebook.com/docs/facebook-login/guides/advanced/manual-flow/',
  authorize: { origin: 'SOCIALGRAPH_NET_AUTHORIZE_URL', path: `/${GRAPH_VERSION}/dialog/oauth` },
  token: { origin: 'SOCIALGRAPH_NET_API_URL', path: `/${GRAPH_VERSION}/oauth/access_token` },
  longLived: {
    endpoint: { origin: 'SOCIALGRAPH_NET_API_URL', path: `/${GRAPH_VERSION}/oauth/access_token` },
    grantType: 'fb_exchange_token',
    tokenParam: 'fb_exchange_token',
    sendClientId: true,
  },
  // The Pages to choose from, posting (text, photos, videos) and reading posts' counts and insights.
  scopes: ['pages_show_list', 'pages_manage_posts', 'pages_read_engagement', 'read_insights', 'publish_video'],
  scopeSeparator: ',',
  pkce: false,
  clientAuth: 'post',
  // The member's long-lived user token: only used to list the Pages (`listIdentities`), never stored.
  credentials: (answer, now) => ({ accessToken: answer.accessToken, expiresAt: expiresAtOf(answer, now) }),
}
