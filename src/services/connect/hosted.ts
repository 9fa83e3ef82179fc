/**
 * The hosted connect page's use cases: open a link, start the network's authorization (a `state`
 * stored hashed, single use, bound to the link, expiring; PKCE S256 where the network takes it),
 * and finish it at the callback: exchange the code, ask the adapter whose account it is
 * (`verifyCredentials`), and store the account with its credentials encrypted, consuming the link
 * in the same transaction. A refused, replayed, expired or foreign state stores nothing; nor does
 * a failed exchange. Nothing here returns or logs a token.
 */
import { findConnectLink, findConnectLinkById, insertOAuthState, takeOAuthState } from '../../db/queries/connect-links'
import type { ConnectLinkRow, OAuthStateRow } from '../../db/queries/connect-links'
import type { Deps } from '../../deps'
import type { PlatformId } from '../../domain/vocabulary'
import { sha256Hex } from '../../lib/crypto'
import { newId } from '../../lib/ids'
import type { VerifiedAccount } from '../../networks/adapter'
import { connectOrOffer, type IdentityChoice } from './choices'
import { NetworkFailure } from '../../networks/http'
import {
  authorizationUrl,
  exchangeCode,
  newCodeVerifier,
  newState,
  type OAuthContext,
} from '../../networks/oauth-connect'
import { federatedContext, instanceOrigin, knownFederatedContext } from './federated-apps'
import { type ConnectMethod, connectMethodOf } from './links'
import { ConnectRefusal, type Connected } from './refusal'
import { storeConnectedAccount } from './store'
import { oauthContext } from './oauth-context'

export const STATE_LIFETIME_MS = 15 * 60_000

type HostedDeps = Pick<Deps, 'db' | 'cipher' | 'networks' | 'clock' | 'settings' | 'logger'>

export interface OpenLink {
  link: ConnectLinkRow
  method: ConnectMethod
}

/** The link behind a token, if it can still connect an account. */
export async function openLink(deps: Pick<Deps, 'db' | 'clock'>, token: string): Promise<OpenLink> {
  const link = await findConnectLink(deps.db, await sha256Hex(token))
  if (!link) throw new ConnectRefusal('link_unknown', 'This connect link is not valid. Ask for a new one.', 404)
  if (link.usedAt) throw new ConnectRefusal('link_used', 'This connect link was already used. Ask for a new one.', 410)
  if (link.expiresAt <= deps.clock.now())
    throw new ConnectRefusal(
      'link_expired',
      'This connect link has expired (links last 30 minutes). Ask for a new one.',
      410,
    )
  const method = connectMethodOf(link.platform, link.connection)
  if (!method) throw new ConnectRefusal('not_available', `${link.platform} cannot be connected here.`, 422)
  return { link, method }
}

export const callbackUrl = (baseUrl: string, platform: PlatformId) =>
  `${baseUrl.replace(/\/+$/, '')}/oauth/callback/${platform}`

/**
 * Starts the authorization: a new state for the link, and the address of the network's consent
 * page. `instance`: what the owner typed as their server (the federated network).
 */
export async function startAuthorization(
  deps: HostedDeps,
  token: string,
  baseUrl: string,
  instance?: string,
): Promise<string> {
  const { link, method } = await openLink(deps, token)
  if (method.kind === 'form') throw new ConnectRefusal('not_oauth', `${link.platform} is connected with the form.`)
  const now = deps.clock.now()
  const state = newState()
  const id = newId('oauthState')
  const redirectUri = callbackUrl(baseUrl, link.platform)
  const expiresAt = new Date(Math.min(now.getTime() + STATE_LIFETIME_MS, link.expiresAt.getTime()))
  const stateRow = { id, linkId: link.id, stateHash: await sha256Hex(state), platform: link.platform, expiresAt }
  if (method.kind === 'sandbox') {
    await insertOAuthState(deps.db, { ...stateRow, verifier: null })
    const url = new URL(`${baseUrl.replace(/\/+$/, '')}/sandbox/oauth/authorize`)
    url.searchParams.set('platform', link.platform)
    url.searchParams.set('redirect_uri', redirectUri)
    url.searchParams.set('state', state)
    return url.href
  }
  let ctx: OAuthContext | null
  if (method.kind === 'federated') {
    if (!instance)
      throw new ConnectRefusal('invalid_instance', 'Name your server first (for example mastodon.social).', 422)
    ctx = await federatedContext(deps, await instanceOrigin(deps, instance), redirectUri)
  } else {
    ctx = oauthContext(deps, link.platform)
  }
  if (!ctx)
    throw new ConnectRefusal('no_client', `This service has no OAuth client for ${link.platform} configured.`, 422)
  const codeVerifier = newCodeVerifier(method.provider)
  const verifier = codeVerifier === null ? null : await deps.cipher.encrypt({ codeVerifier }, id)
  await insertOAuthState(deps.db, { ...stateRow, verifier, instanceUrl: ctx.instanceUrl ?? null })
  return authorizationUrl(method.provider, ctx, { redirectUri, state, codeVerifier })
}

/** The state of a callback, taken once; the link it belongs to. */
async function takeState(deps: HostedDeps, platform: PlatformId, query: URLSearchParams) {
  const state = query.get('state')
  if (!state)
    throw new ConnectRefusal(
      'state_missing',
      'This sign-in came back without its state: start again from the connect link.',
    )
  const now = deps.clock.now()
  const { row, taken } = await takeOAuthState(deps.db, await sha256Hex(state), platform, now)
  if (!row)
    throw new ConnectRefusal('state_unknown', 'This sign-in is not one we started: start again from the connect link.')
  if (!taken) {
    if (row.platform !== platform)
      throw new ConnectRefusal(
        'state_unknown',
        'This sign-in is not one we started: start again from the connect link.',
      )
    if (row.usedAt)
      throw new ConnectRefusal('state_used', 'This sign-in was already completed or refused; it cannot be used twice.')
    throw new ConnectRefusal(
      'state_expired',
      'This sign-in took too long and has expired: start again from the connect link.',
      410,
    )
  }
  const link = await findConnectLinkById(deps.db, row.linkId)
  if (!link) throw new ConnectRefusal('link_unknown', 'This connect link no longer exists. Ask for a new one.', 404)
  if (link.usedAt || link.expiresAt <= now)
    throw new ConnectRefusal(
      'link_used',
      'This connect link was already used or has expired. Ask for a new one.',
      410,
      link.redirectUrl,
    )
  return { row, link }
}

/** The sandbox's "authorization code": the name the owner chose on its consent page. */
export const sandboxCode = (username: string) => btoa(encodeURIComponent(username)).replace(/=+$/, '')
const sandboxUsername = (code: string) => {
  try {
    return decodeURIComponent(atob(code))
  } catch {
    return ''
  }
}

/**
 * The network's callback: the account connected, the identities to choose from where the sign-in
 * granted several, or a `ConnectRefusal` saying why not (nothing stored).
 */
export async function completeAuthorization(
  deps: HostedDeps,
  platform: PlatformId,
  query: URLSearchParams,
  baseUrl: string,
): Promise<Connected | IdentityChoice> {
  const { row, link } = await takeState(deps, platform, query)
  const back = link.redirectUrl
  const refused = query.get('error')
  if (refused) {
    const words = query.get('error_description')
    throw new ConnectRefusal(
      refused === 'access_denied' ? 'access_denied' : 'authorization_failed',
      `${platform} did not grant access${words ? `: ${words}` : ` (${refused})`}.`,
      400,
      back,
    )
  }
  if (link.connection === 'SANDBOX') {
    const username = sandboxUsername(query.get('code') ?? '').trim()
    if (!username)
      throw new ConnectRefusal('authorization_failed', 'The sandbox sign-in gave no account name.', 400, back)
    const verified = { username, externalId: `sandbox:${username.toLowerCase()}`, credentials: { failMode: 'never' } }
    return storeConnectedAccount(deps, link, verified)
  }
  return connectOrOffer(deps, link, row, await exchangeAndVerify(deps, link, row, query, baseUrl))
}

async function exchangeAndVerify(
  deps: HostedDeps,
  link: ConnectLinkRow,
  state: OAuthStateRow,
  query: URLSearchParams,
  baseUrl: string,
): Promise<VerifiedAccount[]> {
  const method = connectMethodOf(link.platform, link.connection)
  const instanceUrl = state.instanceUrl
  const ctx =
    method?.kind === 'federated' && instanceUrl
      ? await knownFederatedContext(deps, instanceUrl)
      : oauthContext(deps, link.platform)
  const back = link.redirectUrl
  if ((method?.kind !== 'oauth' && method?.kind !== 'federated') || !ctx)
    throw new ConnectRefusal(
      'no_client',
      `This service has no OAuth client for ${link.platform} configured.`,
      422,
      back,
    )
  const codeVerifier = state.verifier
    ? String((await deps.cipher.decrypt(state.verifier, state.id)).codeVerifier)
    : null
  const now = deps.clock.now()
  const adapter = deps.networks.adapterFor(link.platform, link.connection)
  try {
    const answer = await exchangeCode(method.provider, ctx, {
      callback: query,
      redirectUri: callbackUrl(baseUrl, link.platform),
      codeVerifier,
    })
    const credentials = method.provider.credentials(answer, now, instanceUrl)
    const input = {
      connection: link.connection,
      credentials,
      fetch: deps.networks.fetch,
      baseUrl: deps.networks.baseUrlFor(link.platform, link.connection, credentials),
      now,
    }
    if (adapter?.listIdentities) return await adapter.listIdentities(input)
    if (!adapter?.verifyCredentials) throw new NetworkFailure('rejected', `${link.platform} cannot confirm accounts.`)
    return [await adapter.verifyCredentials(input)]
  } catch (err) {
    if (!(err instanceof NetworkFailure)) throw err
    deps.logger.warn('connect_exchange_failed', { platform: link.platform, linkId: link.id, kind: err.kind })
    throw new ConnectRefusal('exchange_failed', err.message, 502, back)
  }
}
