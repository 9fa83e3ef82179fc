/**
 * Hosted connect through a network's OAuth 2.0 authorization code flow, over `oauth4webapi`: the
 * authorization URL (with PKCE S256 where the network takes it), the code exchange, and token
 * revocation. What differs per network (its endpoints, scopes, PKCE, how the client authenticates,
 * which credentials the token answer becomes) is data in `adapters/<network>/oauth.ts`. Every
 * endpoint is an origin key of the configuration plus a path, so a test points it at a loopback fake.
 */
import * as oauth from 'oauth4webapi'
import type { Connection, PlatformId } from '../domain/vocabulary'
import { NetworkFailure } from './http'
import type { OAuthClient } from './oauth'
import type { NetworkOriginKey, NetworkOrigins } from './origins'

/**
 * An endpoint: the configured origin (`<KEY>` in the configuration) and the path on it, or
 * `instance`: the account owner's own server (the federated network).
 */
export interface OAuthEndpoint {
  origin: NetworkOriginKey | 'instance'
  path: string
}

/** What a token endpoint answered, as the provider data reads it. */
export interface TokenAnswer {
  accessToken: string
  refreshToken: string | null
  /** Seconds, when the network said. */
  expiresIn: number | null
  /** Everything else in the answer (ids some networks return with the token). */
  extra: Record<string, unknown>
}

export interface OAuthProvider {
  platform: PlatformId
  /** The connection an account made through this flow has. */
  connection: Connection
  /** The documentation page these settings follow. */
  docs: string
  authorize: OAuthEndpoint
  token: OAuthEndpoint
  /** Where a token is revoked on disconnect; absent when the network documents none. */
  revoke?: OAuthEndpoint
  /** Which token the revocation endpoint takes: the refresh token (all of the grant; default) or the access token. */
  revokes?: 'refresh' | 'access'
  /** The scopes the adapter needs, no more. */
  scopes: readonly string[]
  /** How the scopes are joined in the authorization URL (space by default). */
  scopeSeparator?: string
  /** PKCE with S256. */
  pkce: boolean
  /**
   * How the client proves itself at the token (and revocation) endpoint: HTTP Basic, RFC 6749's
   * `client_id` / `client_secret` form fields, or form fields under the network's own names.
   */
  clientAuth: 'basic' | 'post' | { idField: string; secretField: string }
  /** The authorization request's name for the client id, where the network does not say `client_id`. */
  clientIdParam?: string
  /**
   * Where the network trades the code's short-lived token for a long-lived one (Meta's
   * `fb_exchange_token`, `th_exchange_token`): a GET with the grant type, the client's secret (and
   * id, where asked) and the token under `tokenParam`; its answer replaces the first one's token.
   */
  longLived?: { endpoint: OAuthEndpoint; grantType: string; tokenParam: string; sendClientId: boolean }
  /** More parameters of the authorization request (offline access, consent prompt...). */
  authorizeParams?: Record<string, string>
  /**
   * A token endpoint answering outside RFC 6749 (an error as HTTP 200 with `ok:false`, a token type
   * of its own) rewritten to its standard shape before it is read; absent: read as sent.
   */
  tokenAnswer?(status: number, body: Record<string, unknown>): { status: number; body: Record<string, unknown> }
  /**
   * The credentials to verify and store, from the token answer (`expiresAt` as an ISO time when
   * known); `instanceUrl`: the owner's server, for the federated network.
   */
  credentials(answer: TokenAnswer, now: Date, instanceUrl: string | null): Record<string, unknown>
}

export interface OAuthContext {
  origins: NetworkOrigins
  client: OAuthClient
  fetch: typeof fetch
  /** Plain http endpoints (loopback fakes, local trials): ALLOW_PRIVATE_URLS only. */
  allowHttp: boolean
  /** The owner's own server, for endpoints at `instance`. */
  instanceUrl?: string | null
}

function endpointUrl(ctx: Pick<OAuthContext, 'origins' | 'instanceUrl'>, e: OAuthEndpoint): string {
  const origin = e.origin === 'instance' ? ctx.instanceUrl : ctx.origins[e.origin]
  if (!origin) throw new TypeError(`no origin for ${e.origin}`)
  return new URL(e.path, origin).href
}

function server(
  provider: OAuthProvider,
  ctx: Pick<OAuthContext, 'origins' | 'instanceUrl'>,
): oauth.AuthorizationServer {
  const token = endpointUrl(ctx, provider.token)
  return {
    issuer: new URL(token).origin,
    authorization_endpoint: endpointUrl(ctx, provider.authorize),
    token_endpoint: token,
    ...(provider.revoke ? { revocation_endpoint: endpointUrl(ctx, provider.revoke) } : {}),
  }
}

/**
 * HTTP Basic as the networks document it: base64 of `id:secret` as given. (oauth4webapi's own
 * `ClientSecretBasic` form-encodes both first, RFC 6749 2.3.1, turning `-` into `%2D`, which the
 * networks' examples do not do; the token renewal in oauth.ts sends the same header as this.)
 */
const documentedBasic =
  (secret: string): oauth.ClientAuth =>
  (_as, client, _body, headers) => {
    headers.set('authorization', `Basic ${btoa(`${client.client_id}:${secret}`)}`)
  }

/** The client id and secret as form fields under the network's own names (`client_key`...). */
const namedFields =
  (fields: { idField: string; secretField: string }, secret: string | null): oauth.ClientAuth =>
  (_as, client, body) => {
    body.set(fields.idField, client.client_id)
    if (secret) body.set(fields.secretField, secret)
  }

function clientAuthOf(provider: OAuthProvider, client: OAuthClient): oauth.ClientAuth {
  const auth = provider.clientAuth
  if (typeof auth === 'object') return namedFields(auth, client.clientSecret)
  if (!client.clientSecret) return oauth.None()
  return auth === 'basic' ? documentedBasic(client.clientSecret) : oauth.ClientSecretPost(client.clientSecret)
}

const requestOptions = (ctx: OAuthContext) => ({
  [oauth.customFetch]: ctx.fetch,
  [oauth.allowInsecureRequests]: ctx.allowHttp,
  ...(ctx.client.userAgent ? { headers: { 'user-agent': ctx.client.userAgent } } : {}),
})

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

/** The network's own words for a failed token or revocation answer, never a token. */
async function failureWords(err: unknown): Promise<string> {
  if (err instanceof oauth.ResponseBodyError)
    return err.error_description ? `${err.error}: ${err.error_description}` : `${err.error} (HTTP ${err.status})`
  if (err instanceof oauth.AuthorizationResponseError)
    return err.error_description ? `${err.error}: ${err.error_description}` : err.error
  if (err instanceof oauth.OperationProcessingError) {
    // An answer outside the protocol (a 5xx, an error page): its status and, when it is one, the OAuth error in it.
    const answer = answerOf(err)
    if (answer) return `HTTP ${answer.status}${await oauthErrorIn(answer)}`
    return err.message
  }
  if (err instanceof TypeError) return 'the network could not be reached'
  return 'an unexpected answer'
}

/** The HTTP answer an oauth4webapi error carries (a Response of whichever fetch was used), if any. */
function answerOf(err: unknown): Response | null {
  const cause = err instanceof oauth.OperationProcessingError ? (err.cause as Partial<Response> | undefined) : undefined
  return cause && typeof cause.status === 'number' && typeof cause.clone === 'function' ? (cause as Response) : null
}

/** `: error: description` when the answer's body is an RFC 6749 error object, else ''. */
async function oauthErrorIn(response: Response): Promise<string> {
  try {
    const body = (await response.clone().json()) as { error?: unknown; error_description?: unknown }
    if (typeof body.error !== 'string') return ''
    const words = typeof body.error_description === 'string' ? `: ${body.error_description.slice(0, 300)}` : ''
    return ` ${body.error}${words}`
  } catch {
    return ''
  }
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
  const as = server(provider, ctx)
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

/** The answer as `rewrite` makes it (a body that is no JSON object is left as sent). */
async function rewritten(response: Response, rewrite: NonNullable<OAuthProvider['tokenAnswer']>): Promise<Response> {
  try {
    const body = (await response.clone().json()) as unknown
    if (!body || typeof body !== 'object') return response
    const next = rewrite(response.status, body as Record<string, unknown>)
    return new Response(JSON.stringify(next.body), {
      status: next.status,
      headers: { 'content-type': 'application/json' },
    })
  } catch {
    return response
  }
}

/**
 * A token answer without `token_type` (Threads and LinkedIn document none) as a bearer one, which
 * it is; oauth4webapi requires the field. Any other answer is passed on untouched.
 */
async function withTokenType(response: Response): Promise<Response> {
  if (!response.ok) return response
  try {
    const body = (await response.clone().json()) as Record<string, unknown>
    if (!body || typeof body !== 'object' || body.token_type !== undefined) return response
    return new Response(JSON.stringify({ ...body, token_type: 'bearer' }), {
      status: response.status,
      headers: response.headers,
    })
  } catch {
    return response
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
  const as = server(provider, ctx)
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

/** `expiresAt` from a token answer's lifetime, when it gave one. */
export const expiresAtOf = (answer: TokenAnswer, now: Date): string | undefined =>
  answer.expiresIn === null ? undefined : new Date(now.getTime() + answer.expiresIn * 1000).toISOString()
