/**
 * The `NetworkRegistry` of `Deps`: which adapter publishes for an account and where it talks to.
 * `SANDBOX` accounts go to the simulated network whatever their platform; other connections to
 * the platform's real adapter (all twelve are built in networks/real-adapters.ts).
 */
import type { NetworkOriginKey, NetworkOrigins } from './origins'
import type { NetworkAdapter } from './adapter'
import type { Connection, PlatformId } from '../domain/vocabulary'
import type { NetworkRegistry } from './registry'
import type { SandboxAdapter } from './sandbox/adapter'

export interface NetworkRegistryOptions {
  /** The simulated network; a `SandboxAdapter` is asked for each platform's view of it. */
  sandbox: NetworkAdapter
  realAdapters?: Partial<Record<PlatformId, NetworkAdapter>>
  origins: NetworkOrigins
  fetch: typeof fetch
}

const hasPlatformViews = (adapter: NetworkAdapter): adapter is SandboxAdapter =>
  typeof (adapter as Partial<SandboxAdapter>).forPlatform === 'function'

/** Networks whose API origin is the account's own server, by the credential field that names it. */
const SERVER_FROM_CREDENTIALS: Partial<Record<PlatformId, string>> = {
  OPENPROTOCOL_NET: 'serviceUrl',
  FEDERATED_NET: 'instanceUrl',
}

export function createNetworkRegistry(options: NetworkRegistryOptions): NetworkRegistry {
  const { sandbox, realAdapters = {}, origins } = options
  return {
    fetch: options.fetch,
    adapterFor(platform: PlatformId, connection: Connection): NetworkAdapter | null {
      if (connection === 'SANDBOX') return hasPlatformViews(sandbox) ? sandbox.forPlatform(platform) : sandbox
      return realAdapters[platform] ?? null
    },
    baseUrlFor(platform: PlatformId, connection: Connection, credentials: Record<string, unknown>): string {
      if (connection === 'SANDBOX') return ''
      const field =
        platform === 'CHAT_NET' && connection === 'WEBHOOK' ? 'webhookUrl' : SERVER_FROM_CREDENTIALS[platform]
      if (field !== undefined) {
        const url = credentials[field]
        return typeof url === 'string' ? url : ''
      }
      const key =
        platform === 'PHOTO_NET' && connection === 'DIRECT_LOGIN' ? 'PHOTO_NET_DIRECT_API_URL' : `${platform}_API_URL`
      return key in origins ? origins[key as NetworkOriginKey] : ''
    },
  }
}
