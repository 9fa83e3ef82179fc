/**
 * A network's OAuth settings as oauth4webapi takes them: its endpoints' URLs on the configured
 * origins, the authorization server, how the client authenticates (HTTP Basic as the networks
 * document it, RFC 6749's form fields, or the network's own field names) and the fetch options.
 */
import * as oauth from 'oauth4webapi'
import type { OAuthClient } from './oauth'
import type { OAuthContext, OAuthEndpoint, OAuthProvider } from './oauth-connect-settings'

/** An endpoint's URL: its path on the configured origin, or on the owner's own server (`instance`). */
export function endpointUrl(ctx: Pick<OAuthContext, 'origins' | 'instanceUrl'>, e: OAuthEndpoint): string {
  const origin = e.origin === 'instance' ? ctx.instanceUrl : ctx.origins[e.origin]
  if (!origin) throw new TypeError(`no origin for ${e.origin}`)
  return new URL(e.path, origin).href
}

/** The network's authorization server as oauth4webapi describes one (issuer: the token endpoint's origin). */
export function authorizationServer(
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

/** How this service's client proves itself at the network's token and revocation endpoints. */
export function clientAuthOf(provider: OAuthProvider, client: OAuthClient): oauth.ClientAuth {
  const auth = provider.clientAuth
  if (typeof auth === 'object') return namedFields(auth, client.clientSecret)
  if (!client.clientSecret) return oauth.None()
  return auth === 'basic' ? documentedBasic(client.clientSecret) : oauth.ClientSecretPost(client.clientSecret)
}

/** oauth4webapi's options for one call: our fetch, plain http where allowed, and our User-Agent. */
export const requestOptions = (ctx: OAuthContext) => ({
  [oauth.customFetch]: ctx.fetch,
  [oauth.allowInsecureRequests]: ctx.allowHttp,
  ...(ctx.client.userAgent ? { headers: { 'user-agent': ctx.client.userAgent } } : {}),
})
