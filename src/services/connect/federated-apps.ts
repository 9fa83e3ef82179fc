/**
 * The federated network's OAuth client, per server: the owner names their server on the connect
 * page; its address must be public (networks/outbound.ts) before it is called; our app is
 * registered there at first use (`POST /api/v1/apps`) and remembered, its secret sealed.
 */
import { findFederatedApp, saveFederatedApp } from '../../db/queries/federated-apps'
import type { Deps } from '../../deps'
import { FEDERATED_APPS_PATH, FEDERATED_OAUTH } from '../../networks/adapters/federated/oauth'
import type { OAuthContext } from '../../networks/oauth-connect'
import { ConnectRefusal } from './refusal'

type FederatedDeps = Pick<Deps, 'db' | 'cipher' | 'networks' | 'settings'>

const APP_NAME = 'Social Publishing API'

/** The server's origin from what the owner typed (`mastodon.social` or `https://mastodon.social/@me`). */
export async function instanceOrigin(deps: Pick<Deps, 'networks'>, typed: string): Promise<string> {
  const text = typed.trim()
  let url: URL
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`)
  } catch {
    throw new ConnectRefusal('invalid_instance', 'That is not a server address (for example mastodon.social).', 422)
  }
  const refused = await deps.networks.checkAccountAddress?.('FEDERATED_NET', 'DIRECT_LOGIN', {
    instanceUrl: url.origin,
  })
  if (refused)
    throw new ConnectRefusal('invalid_instance', `The server address is not accepted: ${refused.message}.`, 422)
  return url.origin
}

const context = (deps: FederatedDeps, instanceUrl: string, clientId: string, clientSecret: string): OAuthContext => ({
  origins: deps.settings.networkOrigins,
  client: { clientId, clientSecret },
  fetch: deps.networks.fetch,
  allowHttp: deps.settings.allowPrivateUrls === true,
  instanceUrl,
})

/** Our client on this server, registered now if it has none for this redirect URI. */
export async function federatedContext(
  deps: FederatedDeps,
  origin: string,
  redirectUri: string,
): Promise<OAuthContext> {
  const known = await findFederatedApp(deps.db, origin)
  if (known && known.redirectUri === redirectUri) {
    const { clientSecret } = await deps.cipher.decrypt(known.clientSecret, origin)
    return context(deps, origin, known.clientId, String(clientSecret))
  }
  let answer: Response
  try {
    answer = await deps.networks.fetch(new URL(FEDERATED_APPS_PATH, origin).href, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({
        client_name: APP_NAME,
        redirect_uris: redirectUri,
        scopes: FEDERATED_OAUTH.scopes.join(' '),
      }),
      signal: AbortSignal.timeout(15_000),
    })
  } catch {
    throw new ConnectRefusal('instance_unreachable', `The server ${origin} could not be reached.`, 422)
  }
  const body = (await answer.json().catch(() => null)) as {
    client_id?: unknown
    client_secret?: unknown
    error?: unknown
  } | null
  if (!answer.ok || typeof body?.client_id !== 'string' || typeof body.client_secret !== 'string') {
    const words = typeof body?.error === 'string' ? `: ${body.error.slice(0, 200)}` : ` (HTTP ${answer.status})`
    throw new ConnectRefusal('instance_refused', `The server ${origin} did not register this app${words}.`, 422)
  }
  await saveFederatedApp(deps.db, {
    instanceOrigin: origin,
    clientId: body.client_id,
    clientSecret: await deps.cipher.encrypt({ clientSecret: body.client_secret }, origin),
    redirectUri,
  })
  return context(deps, origin, body.client_id, body.client_secret)
}

/** Our client on this server as registered, for the code exchange and revocation; null when there is none. */
export async function knownFederatedContext(deps: FederatedDeps, instanceUrl: string): Promise<OAuthContext | null> {
  const origin = new URL(instanceUrl).origin
  const known = await findFederatedApp(deps.db, origin)
  if (!known) return null
  const { clientSecret } = await deps.cipher.decrypt(known.clientSecret, origin)
  return context(deps, origin, known.clientId, String(clientSecret))
}
