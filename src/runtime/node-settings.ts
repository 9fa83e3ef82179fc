/**
 * What the Node runtime's deps take from the configuration and from Node itself, for the server
 * and the CLI alike: the app settings, and Node's DNS resolver for the outbound guard.
 */
import { lookup } from 'node:dns/promises'
import { networkClients, networkOrigins, type NodeConfig } from '../config'
import type { AppSettings } from '../deps'
import type { ResolveHost } from '../networks/outbound'

/** The settings of the Node runtime, from its configuration. */
export function nodeSettings(config: NodeConfig): AppSettings {
  return {
    maxBodyBytes: config.MAX_BODY_BYTES,
    inboxSync: { intervalSec: config.INBOX_SYNC_INTERVAL_SEC, sandboxIntervalSec: config.SANDBOX_SYNC_INTERVAL_SEC },
    publicUrl: config.PUBLIC_URL ?? null,
    networkOrigins: networkOrigins(config),
    networkClients: networkClients(config),
    allowPrivateUrls: config.ALLOW_PRIVATE_URLS,
    corsOrigins: config.CORS_ORIGINS,
    connectRedirectOrigins: config.CONNECT_REDIRECT_ORIGINS,
  }
}

/** Every address of a name (IPv4 and IPv6), for the outbound guard's check after DNS. */
export const nodeResolveHost: ResolveHost = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address)
