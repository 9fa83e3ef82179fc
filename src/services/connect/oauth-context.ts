import type { Deps } from '../../deps'
import type { PlatformId } from '../../domain/vocabulary'
import type { OAuthContext } from '../../networks/oauth-connect'
import type { OAuthClient } from '../../networks/oauth'

/** This service's OAuth client at a network (`<ID>_CLIENT_ID` / `_CLIENT_SECRET`), if configured. */
export function oauthClientOf(settings: Deps['settings'], platform: PlatformId): OAuthClient | null {
  const clients = (settings.networkClients ?? {}) as Partial<Record<PlatformId, OAuthClient>>
  const client = clients[platform]
  return client?.clientId ? client : null
}

/** Where and with what a hosted connect talks to the network's OAuth endpoints; null without a client. */
export function oauthContext(deps: Pick<Deps, 'settings' | 'networks'>, platform: PlatformId): OAuthContext | null {
  const client = oauthClientOf(deps.settings, platform)
  if (!client) return null
  return {
    origins: deps.settings.networkOrigins,
    client,
    fetch: deps.networks.fetch,
    allowHttp: deps.settings.allowPrivateUrls === true,
  }
}
