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
  /**
   * The fetch every adapter gets: the outbound guard (outbound.ts) checks each request to an
   * address the operator did not configure (an account's own server, a URL a network answered with).
   */
  fetch: typeof fetch
  /** ALLOW_PRIVATE_URLS: an account's own server may be private, loopback or plain http (outbound.ts). */
  readonly allowPrivateUrls?: boolean
  /**
   * Why a user-given URL (a webhook endpoint) may not be called under the outbound policy, after
   * DNS where the runtime has it; null when it may (outbound.ts `checkOutboundUrl`).
   */
  checkUrl?(url: string): Promise<string | null>
  /**
   * Refusal of the address an account's credentials give for its own server (`instanceUrl`,
   * `serviceUrl`, `webhookUrl`), naming the field; null when there is none or it may be called.
   */
  checkAccountAddress?(
    platform: PlatformId,
    connection: Connection,
    credentials: Record<string, unknown>,
  ): Promise<{ field: string; message: string } | null>
}
