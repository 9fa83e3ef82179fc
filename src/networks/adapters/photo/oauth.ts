/**
 * Hosted connect for the photo network's professional accounts behind Facebook Pages (Instagram
 * API with Facebook Login, connection SOCIALGRAPH_LOGIN): Facebook Login's dialog and code
 * exchange (client in the form body), the user token traded at once for a long-lived one
 * (`fb_exchange_token`, about 60 days, not renewable by us: the account reconnects), then the
 * Pages' `instagram_business_account` from `/me/accounts`; the owner chooses which accounts to
 * connect. No revocation endpoint (RFC 7009) and no PKCE are documented for this flow. Followed:
 * https://developers.facebook.com/docs/instagram-platform/instagram-api-with-facebook-login/ (scopes,
 * finding the account through the Page) and
 * https://developers.facebook.com/docs/facebook-login/guides/access-tokens/get-long-lived/.
 */
import { expiresAtOf, type OAuthProvider } from '../../oauth-connect'
import { PHOTO_GRAPH_VERSION } from './plan'

export const PHOTO_OAUTH: OAuthProvider = {
  platform: 'PHOTO_NET',
  connection: 'SOCIALGRAPH_LOGIN',
  docs: 'https://developers.facebook.com/docs/instagram-platform/instagram-api-with-facebook-login/',
  authorize: { origin: 'PHOTO_NET_AUTHORIZE_URL', path: `/${PHOTO_GRAPH_VERSION}/dialog/oauth` },
  token: { origin: 'PHOTO_NET_API_URL', path: `/${PHOTO_GRAPH_VERSION}/oauth/access_token` },
  longLived: {
    endpoint: { origin: 'PHOTO_NET_API_URL', path: `/${PHOTO_GRAPH_VERSION}/oauth/access_token` },
    grantType: 'fb_exchange_token',
    tokenParam: 'fb_exchange_token',
    sendClientId: true,
  },
  // The account and its Page, publishing, the first comment, and the insights read back.
  scopes: [
    'instagram_basic',
    'instagram_content_publish',
    'instagram_manage_comments',
    'instagram_manage_insights',
    'pages_show_list',
    'pages_read_engagement',
  ],
  scopeSeparator: ',',
  pkce: false,
  clientAuth: 'post',
  credentials: (answer, now) => ({ accessToken: answer.accessToken, expiresAt: expiresAtOf(answer, now) }),
}
