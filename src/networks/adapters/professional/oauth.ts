/**
 * Hosted connect for the professional network (LinkedIn, 3-legged OAuth 2.0 for web apps): the
 * member signs in and chooses to post as themself (`urn:li:person:<sub>`, read from `/v2/userinfo`)
 * and/or as organisations they administer (identities.ts; the organisation scopes
 * need the app's Community Management API access); tokens
 * last 60 days and are renewed by a reconnect (refresh tokens are for approved partners only). The
 * client goes in the form body; PKCE is documented for native clients only, so none is sent.
 * Followed: LinkedIn's "Authorization Code Flow" page (its authentication section),
 * https://learn.microsoft.com/linkedin/consumer/integrations/self-serve/sign-in-with-linkedin-v2 and
 * https://learn.microsoft.com/linkedin/consumer/integrations/self-serve/share-on-linkedin (scopes).
 */
import { expiresAtOf, type OAuthProvider } from '../../oauth-connect'

export const PROFESSIONAL_OAUTH: OAuthProvider = {
  platform: 'PROFESSIONAL_NET',
  connection: 'DIRECT_LOGIN',
  docs: 'https://learn.microsoft.com/linkedin/consumer/integrations/self-serve/sign-in-with-linkedin-v2',
  authorize: { origin: 'PROFESSIONAL_NET_OAUTH_URL', path: '/oauth/v2/authorization' },
  token: { origin: 'PROFESSIONAL_NET_OAUTH_URL', path: '/oauth/v2/accessToken' },
  revoke: { origin: 'PROFESSIONAL_NET_OAUTH_URL', path: '/oauth/v2/revoke' },
  revokes: 'access',
  // Who the member is (OpenID Connect userinfo), posting as that member, posting as an organisation
  // and reading which organisations the member administers (with their names and statistics).
  scopes: ['openid', 'profile', 'w_member_social', 'w_organization_social', 'rw_organization_admin'],
  pkce: false,
  clientAuth: 'post',
  credentials: (answer, now) => ({ accessToken: answer.accessToken, expiresAt: expiresAtOf(answer, now) }),
}
