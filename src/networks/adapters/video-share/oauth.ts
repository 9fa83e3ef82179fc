/**
 * Hosted connect for the video-sharing network (YouTube Data API) through Google's OAuth 2.0 for
 * web server applications (adapters/google/oauth.ts), with the scopes of
 * https://developers.google.com/youtube/v3/guides/auth/server-side-web-apps.
 */
import { googleOAuthProvider } from '../google/oauth'

export const VIDEOSHARE_OAUTH = googleOAuthProvider({
  platform: 'VIDEOSHARE_NET',
  authorizeOrigin: 'VIDEOSHARE_NET_AUTHORIZE_URL',
  tokenOrigin: 'VIDEOSHARE_NET_OAUTH_URL',
  // Uploading videos, and reading the channel (identity, statistics).
  scopes: ['https://www.googleapis.com/auth/youtube.upload', 'https://www.googleapis.com/auth/youtube.readonly'],
})
