import type { NetworkAdapter } from './adapter'
import type { Connection, PlatformId } from '../domain/vocabulary'

/**
 * Which adapter publishes for an account: `SANDBOX` accounts go to the built-in simulated
 * network whatever their platform; other connections to that platform's real adapter.
 */
export interface NetworkRegistry {
  adapterFor(platform: PlatformId, connection: Connection): NetworkAdapter | null
  /** The API origin an adapter talks to for this account (configuration, or the account's own server). */
  baseUrlFor(platform: PlatformId, connection: Connection, credentials: Record<string, unknown>): string
  fetch: typeof fetch
}
