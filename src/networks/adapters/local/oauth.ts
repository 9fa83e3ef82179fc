/**
 * Hosted connect for the local business network: Google's OAuth 2.0 for web server applications
 * (adapters/google/oauth.ts, shared with the video-sharing network) with the one scope every Business
 * Profile API takes, https://www.googleapis.com/auth/business.manage
 * (https://developers.google.com/my-business/content/basic-setup). The sign-in is a person; the
 * locations they manage are offered by the identity chooser (identities.ts).
 */
import { googleOAuthProvider } from '../google/oauth'

export const LOCAL_OAUTH = googleOAuthProvider({
  platform: 'LOCAL_NET',
  authorizeOrigin: 'LOCAL_NET_AUTHORIZE_URL',
  tokenOrigin: 'LOCAL_NET_OAUTH_URL',
  scopes: ['https://www.googleapis.com/auth/business.manage'],
})
