import type { Db } from '../db/types'
import type { AppSettings } from '../deps'
import { createDrizzleSandboxStore } from '../infra/sandbox-store'
import { createNetworkRegistry } from '../networks/create-registry'
import { createRealAdapters } from '../networks/real-adapters'
import type { NetworkRegistry } from '../networks/registry'
import { createSandboxAdapter } from '../networks/sandbox/adapter'

/**
 * The network adapters of either runtime: the simulated network for SANDBOX accounts (its
 * permalinks under the service's public URL, read when a permalink is made) and the real
 * networks' adapters, talking to the configured origins.
 */
export function buildNetworkRegistry(db: Db, settings: AppSettings, fetchImpl: typeof fetch = fetch): NetworkRegistry {
  return createNetworkRegistry({
    sandbox: createSandboxAdapter({
      store: createDrizzleSandboxStore(db),
      permalinkBase: () => settings.publicUrl ?? 'http://localhost',
    }),
    realAdapters: createRealAdapters({ clients: settings.networkClients ?? {}, origins: settings.networkOrigins }),
    origins: settings.networkOrigins,
    fetch: fetchImpl,
  })
}
