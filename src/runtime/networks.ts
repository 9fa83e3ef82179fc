import { createDrizzleSandboxStore } from '../db/queries/sandbox-posts'
import type { Db } from '../db/types'
import type { AppSettings } from '../deps'
import { createNetworkRegistry } from '../networks/create-registry'
import { createRealAdapters } from '../networks/real-adapters'
import type { ObjectStorage } from '../infra/storage/types'
import type { OutboundPolicy, ResolveHost } from '../networks/outbound'
import { createRelaySockets, type OpenSocket } from '../networks/sockets'
import type { NetworkRegistry } from '../networks/registry'
import { createSandboxAdapter } from '../networks/sandbox/adapter'

/**
 * The network adapters of either runtime: the simulated network for SANDBOX accounts (its
 * permalinks under the service's public URL, read when a permalink is made) and the real
 * networks' adapters, talking to the configured origins.
 */
export function buildNetworkRegistry(
  db: Db,
  settings: AppSettings,
  fetchImpl: typeof fetch = fetch,
  outbound: {
    resolveHost?: ResolveHost | undefined
    storage?: ObjectStorage
    openSocket?: OpenSocket | undefined
  } = {},
): NetworkRegistry {
  const policy: OutboundPolicy = { allowPrivate: settings.allowPrivateUrls ?? false, resolveHost: outbound.resolveHost }
  // Our own media storage is configured by the operator, like the networks' origins: not checked.
  const storageOrigin = outbound.storage ? originOrNull(outbound.storage.publicUrl('probe')) : null
  return createNetworkRegistry({
    sandbox: createSandboxAdapter({
      store: createDrizzleSandboxStore(db),
      permalinkBase: () => settings.publicUrl ?? 'http://localhost',
    }),
    realAdapters: createRealAdapters({
      clients: settings.networkClients ?? {},
      origins: settings.networkOrigins,
      // Relay URLs are the accounts' own: each is checked by the outbound guard before a socket opens.
      sockets: createRelaySockets(outbound.openSocket, policy),
    }),
    origins: settings.networkOrigins,
    fetch: fetchImpl,
    outbound: policy,
    ...(storageOrigin ? { trustedOrigins: [storageOrigin] } : {}),
    ...(settings.networkDeadlineCapMs !== undefined ? { deadlineCapMs: settings.networkDeadlineCapMs } : {}),
  })
}

function originOrNull(url: string): string | null {
  try {
    return new URL(url).origin
  } catch {
    return null
  }
}
