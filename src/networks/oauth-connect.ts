/**
 * Hosted connect through a network's OAuth 2.0 authorization code flow, over `oauth4webapi`: the
 * authorization URL (with PKCE S256 where the network takes it), the code exchange (and the trade
 * for a long-lived token where the network has one), and token revocation. What differs per
 * network (its endpoints, scopes, PKCE, how the client authenticates, which credentials the token
 * answer becomes) is data in `adapters/<network>/oauth.ts`, of the shape in
 * oauth-connect-settings.ts (re-exported here); oauth-connect-client.ts turns it into what
 * oauth4webapi takes and oauth-connect-answers.ts reads the answers. Every endpoint is an origin
 * key of the configuration plus a path, so a test points it at a loopback fake.
 */
import * as oauth from 'oauth4webapi'
import { NetworkFailure } from './http'
import { answerOf, failureWords, rewritten, withTokenType } from './oauth-connect-answers'
import { authorizationServer, clientAuthOf, endpointUrl, requestOptions } from './oauth-connect-client'
import type { OAuthContext, OAuthProvider, TokenAnswer } from './oauth-connect-settings'

export * from './oauth-connect-settings'

/** A fresh PKCE verifier, or null where the network takes none. */
export const newCodeVerifier = (provider: OAuthProvider): string | null =>
  provider.pkce ? oauth.generateRandomCodeVerifier() : null

/** A fresh `state` value (random, URL-safe). */
export const newState = (): string => oauth.generateRandomState()

/** Where the owner's browser goes to sign in and approve. */
export async function authorizationUrl(
  provider: OAuthProvider,
  ctx: Pick<OAuthContext, 'origins' | 'client' | 'instanceUrl'>,
  input: { redirectUri: string; state: string; codeVerifier: string | null },
): Promise<string> {
  const url = new URL(endpointUrl(ctx, provider.authorize))
  url.searchParams.set('response_type', 'code')
  url.searchParams.set(provider.clientIdParam ?? 'client_id', ctx.client.clientId)
  url.searchParams.set('redirect_uri', input.redirectUri)
  url.searchParams.set('scope', provider.scopes.join(provider.scopeSeparator ?? ' '))
  url.searchParams.set('state', input.state)
  if (input.codeVerifier) {
    url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(input.codeVerifier))
    url.searchParams.set('code_challenge_method', 'S256')
  }
  for (const [k, v] of Object.entries(provider.authorizeParams ?? {})) url.searchParams.set(k, v)
  return url.href
}

/**
 * Exchanges the code of the callback for tokens. The `state` was checked by the caller (stored
 * hashed, single use); a refusal or failure of the network is a `NetworkFailure` in its words.
 */
export async function exchangeCode(
  provider: OAuthProvider,
  ctx: OAuthContext,
  input: { callback: URLSearchParams; redirectUri: string; codeVerifier: string | null },
): Promise<TokenAnswer> {
  const as = authorizationServer(provider, ctx)
  const client: oauth.Client = { client_id: ctx.client.clientId }
  try {
    const params = oauth.validateAuthResponse(as, client, input.callback, oauth.skipStateCheck)
    const response = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      clientAuthOf(provider, ctx.client),
      params,
      input.redirectUri,
      input.codeVerifier ?? oauth.nopkce,
      requestOptions(ctx),
    )
    const standard = provider.tokenAnswer ? await rewritten(response, provider.tokenAnswer) : response
    const body = await oauth.processAuthorizationCodeResponse(as, client, await withTokenType(standard))
    const { access_token, refresh_token, expires_in, ...extra } = body
    const answer: TokenAnswer = {
      accessToken: access_token,
      refreshToken: typeof refresh_token === 'string' && refresh_token ? refresh_token : null,
      expiresIn: typeof expires_in === 'number' && expires_in > 0 ? expires_in : null,
      extra,
    }
    return provider.longLived ? await longLivedToken(provider, ctx, answer) : answer
  } catch (err) {
    if (err instanceof NetworkFailure) throw err
    const status = answerOf(err)?.status ?? 0
    const words = await failureWords(err)
    if (status >= 500 || err instanceof TypeError)
      throw new NetworkFailure(
        'transient',
        `${provider.platform} could not complete the sign-in (${words}); try again.`,
      )
    throw new NetworkFailure('rejected', `${provider.platform} refused the sign-in: ${words}`)
  }
}

/** Trades the short-lived token for the network's long-lived one (`provider.longLived`). */
async function longLivedToken(provider: OAuthProvider, ctx: OAuthContext, first: TokenAnswer): Promise<TokenAnswer> {
  const step = provider.longLived!
  const url = new URL(endpointUrl(ctx, step.endpoint))
  url.searchParams.set('grant_type', step.grantType)
  if (step.sendClientId) url.searchParams.set('client_id', ctx.client.clientId)
  url.searchParams.set('client_secret', ctx.client.clientSecret ?? '')
  url.searchParams.set(step.tokenParam, first.accessToken)
  let response: Response
  try {
    response = await ctx.fetch(url.href, { headers: { accept: 'application/json' } })
  } catch {
    throw new NetworkFailure(
      'transient',
      `${provider.platform} could not be reached for a long-lived token; try again.`,
    )
  }
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>
  const token = body.access_token
  if (!response.ok || typeof token !== 'string' || !token) {
    const error = (body.error ?? {}) as { message?: unknown }
    const words = typeof error.message === 'string' ? error.message.slice(0, 300) : `HTTP ${response.status}`
    const kind = response.status >= 500 ? 'transient' : 'rejected'
    throw new NetworkFailure(kind, `${provider.platform} refused the long-lived token: ${words}`)
  }
  const expiresIn = typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : null
  return { ...first, accessToken: token, expiresIn }
}

/**
 * Revokes a token at the network (disconnect). True when the network confirmed it; false when it
 * has no revocation endpoint; a failure is a `NetworkFailure` in its words.
 */
export async function revokeToken(provider: OAuthProvider, ctx: OAuthContext, token: string): Promise<boolean> {
  if (!provider.revoke) return false
  const as = authorizationServer(provider, ctx)
  try {
    const response = await oauth.revocationRequest(
      as,
      { client_id: ctx.client.clientId },
      clientAuthOf(provider, ctx.client),
      token,
      requestOptions(ctx),
    )
    // RFC 7009 answers 200; some networks (the forum network) document 204 No Content, as clear a yes.
    if (response.status === 204) return true
    await oauth.processRevocationResponse(response)
    return true
  } catch (err) {
    throw new NetworkFailure('rejected', `${provider.platform} did not revoke the token: ${await failureWords(err)}`)
  }
}
