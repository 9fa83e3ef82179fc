/**
 * Installing the app into a workspace (OAuth v2, bot scopes) and, for apps with token rotation
 * on, renewing its bot token. Followed: https://docs.slack.dev/authentication/installing-with-oauth
 * (authorize at `/oauth/v2/authorize`, scopes joined with commas, the code traded at
 * `oauth.v2.access`, the client preferably with HTTP Basic) and
 * https://docs.slack.dev/authentication/using-token-rotation (a rotating app's answer adds
 * `refresh_token` and `expires_in` of 12 hours; `grant_type=refresh_token` at the same method
 * returns a new pair). Without rotation the bot token never expires and no refresh happens.
 * `oauth.v2.access` answers HTTP 200 with `ok:false` on a refusal and names its token type `bot`:
 * `tokenAnswer` turns both into the RFC 6749 shapes the sign-in code reads.
 */
import type { CredentialRefresh } from '../../adapter'
import { NetworkFailure, type NetworkAnswer } from '../../http'
import { oauthRefresh, type OAuthClient, type OAuthRenewal } from '../../oauth'
import { expiresAtOf, type OAuthProvider } from '../../oauth-connect'
import { failureFrom, NETWORK } from './api'

/** Renew a rotating token when it has less than this left (it lasts 12 hours). */
export const REFRESH_MARGIN_SEC = 2 * 3600
export const TOKEN_PATH = '/api/oauth.v2.access'
/**
 * The bot scopes: post (`chat:write`), list public and private channels (`channels:read`,
 * `groups:read`), join a public channel (`channels:join`), upload files (`files:write`), and read a
 * channel's messages and threads to confirm a publish and read replies and reactions
 * (`channels:history`, `groups:history`), and add the inbox's like (`reactions:write`).
 */
export const BOT_SCOPES = [
  'chat:write',
  'channels:read',
  'groups:read',
  'channels:join',
  'files:write',
  'channels:history',
  'groups:history',
  'reactions:write',
] as const

const TOKEN_RENEWAL: OAuthRenewal = {
  network: NETWORK,
  tokenPath: TOKEN_PATH,
  clientAuth: { basic: true },
  refreshMarginSec: REFRESH_MARGIN_SEC,
  defaultLifetimeSec: 12 * 3600,
  failure: (answer: NetworkAnswer, now: Date) => {
    const failure = failureFrom(answer, now, false)
    const body = answer.body && typeof answer.body === 'object' ? answer.body : {}
    // Any refusal of the refresh token itself (invalid_refresh_token, invalid_grant...) needs a reconnect.
    return answer.status === 200 && body.ok === false && failure.kind === 'rejected'
      ? new NetworkFailure('auth_expired', `${failure.message}: reconnect the account`)
      : failure
  },
}

/** Renewal for a rotating install; a token without `refreshToken` (rotation off, or a pasted token) never expires. */
export function workchatRefresh(client: OAuthClient | undefined): CredentialRefresh {
  const oauth = oauthRefresh(TOKEN_RENEWAL, client)
  return {
    isDue: (credentials, now) => typeof credentials.refreshToken === 'string' && oauth.isDue(credentials, now),
    async refresh(input) {
      if (input.connection !== 'DIRECT_LOGIN' || typeof input.credentials.refreshToken !== 'string')
        return {
          status: 'failed',
          kind: 'auth_expired',
          message: `${NETWORK}: the token was refused and cannot be renewed (no token rotation): reconnect the account.`,
        }
      return oauth.refresh(input)
    },
  }
}

/** An `oauth.v2.access` answer in RFC 6749 terms: `ok:false` as a 400 error object, the `bot` token as a bearer one. */
export function tokenAnswer(
  status: number,
  body: Record<string, unknown>,
): { status: number; body: Record<string, unknown> } {
  if (status === 200 && body.ok === false)
    return { status: 400, body: { error: typeof body.error === 'string' ? body.error : 'invalid_request' } }
  if (status === 200 && body.token_type === 'bot') return { status, body: { ...body, token_type: 'bearer' } }
  return { status, body }
}

export const WORKCHAT_OAUTH: OAuthProvider = {
  platform: 'WORKCHAT_NET',
  connection: 'DIRECT_LOGIN',
  docs: 'https://docs.slack.dev/authentication/installing-with-oauth',
  authorize: { origin: 'WORKCHAT_NET_AUTHORIZE_URL', path: '/oauth/v2/authorize' },
  token: { origin: 'WORKCHAT_NET_API_URL', path: TOKEN_PATH },
  scopes: BOT_SCOPES,
  scopeSeparator: ',',
  pkce: false,
  clientAuth: 'basic',
  tokenAnswer,
  credentials: (answer, now) => ({
    accessToken: answer.accessToken,
    ...(answer.refreshToken ? { refreshToken: answer.refreshToken, expiresAt: expiresAtOf(answer, now) } : {}),
    ...(typeof answer.extra.bot_user_id === 'string' ? { botUserId: answer.extra.bot_user_id } : {}),
    ...(answer.extra.team && typeof (answer.extra.team as { id?: unknown }).id === 'string'
      ? { teamId: (answer.extra.team as { id: string }).id }
      : {}),
  }),
}
