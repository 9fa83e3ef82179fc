/**
 * Hosted connect for the text-thread network (Threads API): the authorization window on
 * threads.net, the code exchanged at `POST graph.threads.net/oauth/access_token` (client in the
 * form body) for a short-lived token, which is traded at once for a
 * long-lived one (`GET /access_token?grant_type=th_exchange_token`, about 60 days). The adapter
 * renews it before it expires (`th_refresh_token`, index.ts). Threads documents neither PKCE
 * nor a revocation endpoint, so neither is used. The answer's `user_id` is a JSON number beyond
 * what JavaScript holds exactly, so the user id is read from `/me` instead (`verifyCredentials`). Followed:
 * https://developers.facebook.com/docs/threads/get-started/get-access-tokens-and-permissions/ and
 * https://developers.facebook.com/docs/threads/get-started/long-lived-tokens/.
 */
import { expiresAtOf, type OAuthProvider } from '../../oauth-connect'

export const TEXTTHREAD_OAUTH: OAuthProvider = {
  platform: 'TEXTTHREAD_NET',
  connection: 'DIRECT_LOGIN',
  docs: 'https://developers.facebook.com/docs/threads/get-started/get-access-tokens-and-permissions/',
  authorize: { origin: 'TEXTTHREAD_NET_AUTHORIZE_URL', path: '/oauth/authorize' },
  token: { origin: 'TEXTTHREAD_NET_API_URL', path: '/oauth/access_token' },
  longLived: {
    endpoint: { origin: 'TEXTTHREAD_NET_API_URL', path: '/access_token' },
    grantType: 'th_exchange_token',
    tokenParam: 'access_token',
    sendClientId: false,
  },
  // Who the account is, publishing (thread parts reply to the post before them), and deleting.
  scopes: ['threads_basic', 'threads_content_publish', 'threads_manage_replies', 'threads_delete'],
  scopeSeparator: ',',
  pkce: false,
  clientAuth: 'post',
  credentials: (answer, now) => ({ accessToken: answer.accessToken, expiresAt: expiresAtOf(answer, now) }),
}
