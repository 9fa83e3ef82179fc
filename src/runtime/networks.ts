import { createDrizzleSandboxStore } from '../db/queries/sandbox-posts'
import type { Db } from '../db/types'
import type { AppSettings } from '../deps'
import { createNetworkRegistry } from '../networks/create-registry'
import { createRealAdapters } from '../networks/real-adapters'
import type { ObjectStorage } from '../infra/storage/types'
import type { ResolveHost } from '../networks/outbound'
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
  outbound: { resolveHost?: ResolveHost | undefined; storage?: ObjectStorage } = {},
): NetworkRegistry {
  // Our own media storage is configured by the operator, like the networks' origins: not checked.
  const storageOrigin = outbound.storage ? originOrNull(outbound.storage.publicUrl('probe')) : null
  return createNetworkRegistry({
    sandbox: createSandboxAdapter({
      store: createDrizzleSandboxStore(db),
      permalinkBase: () => settings.publicUrl ?? 'http://localhost',
    }),
    realAdapters: createRealAdapters({ clients: settings.networkClients ?? {}, origins: settings.networkOrigins }),
    origins: settings.networkOrigins,
    fetch: fetchImpl,
    outbound: { allowPrivate: settings.allowPrivateUrls ?? false, resolveHost: outbound.resolveHost },
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
