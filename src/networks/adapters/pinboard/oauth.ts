/**
 * Hosted connect for the pinboard network (Pinterest API v5): authorization code, scopes joined
 * with commas, the client with HTTP Basic at the token endpoint (form body). Pinterest documents
 * no PKCE for this flow and no token revocation endpoint, so neither is used (a disconnect wipes
 * our copy; the owner removes the app's access in the network's settings). Followed:
 * https://developers.pinterest.com/docs/getting-started/set-up-authentication-and-authorization/
 * and the token endpoint of the v5 OpenAPI description (`/v5/oauth/token`).
 */
import { expiresAtOf, type OAuthProvider } from '../../oauth-connect'

export const PINBOARD_OAUTH: OAuthProvider = {
  platform: 'PINBOARD_NET',
  connection: 'DIRECT_LOGIN',
  docs: 'https://developers.pinterest.com/docs/getting-started/set-up-authentication-and-authorization/',
  authorize: { origin: 'PINBOARD_NET_AUTHORIZE_URL', path: '/oauth/' },
  token: { origin: 'PINBOARD_NET_API_URL', path: '/v5/oauth/token' },
  // Boards to choose from, pins to create and read back, the account (identity, followers).
  scopes: ['boards:read', 'pins:read', 'pins:write', 'user_accounts:read'],
  scopeSeparator: ',',
  pkce: false,
  clientAuth: 'basic',
  credentials: (answer, now) => ({
    accessToken: answer.accessToken,
    refreshToken: answer.refreshToken,
    expiresAt: expiresAtOf(answer, now),
  }),
}
