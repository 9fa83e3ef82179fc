/**
 * The credentials an adapter gets: decrypted, and renewed first when they are due. A renewal runs
 * under a row lock on the account and writes the rotated tokens in the same transaction, so two
 * publishes that find the same token due renew it once, and a rotated refresh token is never
 * lost (the second one reads what the first saved). A network that refuses the renewal marks the
 * account EXPIRED with a reconnect message.
 */
import type { Connection, PlatformId } from '../../domain/vocabulary'
import { lockAccountCredentials, saveAccountCredentials } from '../../db/queries/accounts'
import type { Deps } from '../../deps'
import type { FailureKind, NetworkAdapter } from '../../networks/adapter'
import { RECONNECT_MESSAGE } from '../../domain/publishing/decision'
import { expireAccount, tokenExpiryOf } from './accounts'

export type CredentialDeps = Pick<Deps, 'db' | 'cipher' | 'networks' | 'clock'>

export interface AccountCredentialsRow {
  id: string
  platform: PlatformId
  connection: Connection
  /** Sealed, as stored. */
  credentials: string
}

export type UsableCredentials =
  | { ok: true; credentials: Record<string, unknown>; refreshed: boolean }
  | { ok: false; kind: FailureKind; message: string; retryAfterSec?: number }

/**
 * Decrypts the account's credentials and renews them when the adapter says they are due, or
 * always with `force` (after the network answered that the token no longer works) unless another
 * caller renewed them in the meantime.
 */
export async function usableCredentials(
  deps: CredentialDeps,
  account: AccountCredentialsRow,
  adapter: NetworkAdapter,
  options: { force?: boolean } = {},
): Promise<UsableCredentials> {
  // A disconnected account's credentials were wiped: nothing to decrypt, nothing to call the network with.
  if (!account.credentials)
    return { ok: false, kind: 'rejected', message: 'The account is disconnected: reconnect it, then retry.' }
  const credentials = await deps.cipher.decrypt(account.credentials, account.id)
  const renewal = adapter.credentialRefresh
  if (!renewal) return { ok: true, credentials, refreshed: false }
  if (!options.force && !renewal.isDue(credentials, deps.clock.now()))
    return { ok: true, credentials, refreshed: false }
  const platform = account.platform
  const connection = account.connection
  return deps.db.transaction(async (tx) => {
    const locked = await lockAccountCredentials(tx, account.id)
    if (!locked) return { ok: false, kind: 'rejected', message: 'The account was removed.' }
    const current = await deps.cipher.decrypt(locked.credentials, account.id)
    const now = deps.clock.now()
    // Not due (any more): a forced renewal is skipped too when another caller renewed meanwhile.
    const renewedMeanwhile = locked.credentials !== account.credentials
    if ((renewedMeanwhile || !options.force) && !renewal.isDue(current, now))
      return { ok: true, credentials: current, refreshed: false }
    const result = await renewal.refresh({
      connection,
      credentials: current,
      fetch: deps.networks.fetch,
      baseUrl: deps.networks.baseUrlFor(platform, connection, current),
      now,
    })
    if (result.status === 'refreshed') {
      const sealed = await deps.cipher.encrypt(result.credentials, account.id)
      await saveAccountCredentials(tx, account.id, {
        sealed,
        tokenExpiresAt: tokenExpiryOf(result.credentials),
        captionMaxLength: result.captionMaxLength,
      })
      return { ok: true, credentials: result.credentials, refreshed: true }
    }
    if (result.kind === 'auth_expired') {
      // account.expired goes out with the sweep (no queue in these deps).
      await expireAccount(tx, null, account.id, `${RECONNECT_MESSAGE}: ${result.message}`, now)
    }
    return {
      ok: false,
      // A renewal whose answer could not be read made no post: asked again later, like a lost answer.
      kind: result.kind === 'unconfirmed' ? 'transient' : result.kind,
      message: result.message,
      ...(result.retryAfterSec !== undefined ? { retryAfterSec: result.retryAfterSec } : {}),
    }
  })
}
