/**
 * The `NetworkRegistry` of `Deps`: which adapter publishes for an account and where it talks to.
 * `SANDBOX` accounts go to the simulated network whatever their platform; other connections to
 * the platform's real adapter (all twenty are built in networks/real-adapters.ts).
 */
import type { NetworkOriginKey, NetworkOrigins } from './origins'
import type { NetworkAdapter } from './adapter'
import type { Connection, PlatformId } from '../domain/vocabulary'
import type { NetworkRegistry } from './registry'
import type { SandboxAdapter } from './sandbox/adapter'
import { withDeadlineCap } from './http'
import { checkOutboundUrl, guardedFetch, type OutboundPolicy } from './outbound'

export interface NetworkRegistryOptions {
  /** The simulated network; a `SandboxAdapter` is asked for each platform's view of it. */
  sandbox: NetworkAdapter
  realAdapters?: Partial<Record<PlatformId, NetworkAdapter>>
  origins: NetworkOrigins
  fetch: typeof fetch
  /**
   * The outbound guard (outbound.ts) over every request the adapters make: anything but the
   * configured origins and `trustedOrigins` is checked, so an account's own server (`instanceUrl`,
   * `serviceUrl`, `webhookUrl`) or a URL a network answered with must be public. Absent: private
   * addresses refused, no DNS check.
   */
  outbound?: OutboundPolicy
  /** More operator-configured origins not to check (our media storage). */
  trustedOrigins?: string[]
  /** A ceiling on every network call's deadline (http.ts `withDeadlineCap`); absent: each call's own. */
  deadlineCapMs?: number
}

const hasPlatformViews = (adapter: NetworkAdapter): adapter is SandboxAdapter =>
  typeof (adapter as Partial<SandboxAdapter>).forPlatform === 'function'

/** Networks whose API origin is the account's own server, by the credential field that names it. */
const SERVER_FROM_CREDENTIALS: Partial<Record<PlatformId, string>> = {
  OPENPROTOCOL_NET: 'serviceUrl',
  FEDERATED_NET: 'instanceUrl',
  COMMUNITY_NET: 'instanceUrl',
  SITE_NET: 'siteUrl',
}

/** Connections of those networks that talk to the network's own API instead (WordPress.com's sign-in). */
const THROUGH_NETWORK_ORIGIN: Partial<Record<PlatformId, Connection>> = { SITE_NET: 'DIRECT_LOGIN' }

/** The credential field holding the address of the account's own server, if it has one. */
function userGivenField(platform: PlatformId, connection: Connection): string | undefined {
  if (connection === 'SANDBOX' || THROUGH_NETWORK_ORIGIN[platform] === connection) return undefined
  return platform === 'CHAT_NET' && connection === 'WEBHOOK' ? 'webhookUrl' : SERVER_FROM_CREDENTIALS[platform]
}

const originOf = (url: string): string | null => {
  try {
    return new URL(url).origin
  } catch {
    return null
  }
}

export function createNetworkRegistry(options: NetworkRegistryOptions): NetworkRegistry {
  const { sandbox, realAdapters = {}, origins } = options
  const policy: OutboundPolicy = options.outbound ?? { allowPrivate: false }
  const trusted = new Set(
    [...Object.values(origins), ...(options.trustedOrigins ?? [])].map(originOf).filter((o) => o !== null),
  )
  const guarded = guardedFetch(options.fetch, policy, { trusted: (url) => trusted.has(url.origin) })
  return {
    fetch: options.deadlineCapMs === undefined ? guarded : withDeadlineCap(guarded, options.deadlineCapMs),
    allowPrivateUrls: policy.allowPrivate,
    checkUrl: (url) => checkOutboundUrl(url, policy),
    async checkAccountAddress(platform, connection, credentials) {
      const field = userGivenField(platform, connection)
      if (field === undefined) return null
      const url = credentials[field]
      if (typeof url !== 'string') return null
      const problem = await checkOutboundUrl(url, policy)
      return problem === null ? null : { field, message: `${field} ${problem}` }
    },
    adapterFor(platform: PlatformId, connection: Connection): NetworkAdapter | null {
      if (connection === 'SANDBOX') return hasPlatformViews(sandbox) ? sandbox.forPlatform(platform) : sandbox
      return realAdapters[platform] ?? null
    },
    baseUrlFor(platform: PlatformId, connection: Connection, credentials: Record<string, unknown>): string {
      if (connection === 'SANDBOX') return ''
      const field = userGivenField(platform, connection)
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
