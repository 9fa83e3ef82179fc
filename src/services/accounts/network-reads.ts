/**
 * A read an account makes of its network on a caller's behalf (its boards, its audio catalogue),
 * answered at once: a refusal of the account's credentials, or of the network, becomes the
 * contract's error. A network asking us to wait is 429 `rate_limited` with its wait; anything else
 * it refuses is 422 `invalid_option` in its own words, saying to reconnect when the token is spent.
 */
import { AppError } from '../../domain/errors'
import type { PlatformId } from '../../domain/vocabulary'
import type { BoardsInput, NetworkAdapter } from '../../networks/adapter'
import { NetworkFailure } from '../../networks/http'
import {
  type AccountCredentialsRow,
  type CredentialDeps,
  type UsableCredentials,
  usableCredentials,
} from './credentials'

export interface NetworkRead {
  /** What was being listed, for the messages: "the boards". */
  what: string
  /** The request field that named the account, for `details`. */
  path: string
  platform: PlatformId
}

/** The account's credentials, or 422 saying the network did not accept them. */
export function readCredentials(usable: UsableCredentials, read: NetworkRead): Record<string, unknown> {
  if (usable.ok) return usable.credentials
  throw new AppError('invalid_option', `${read.platform} did not accept the account's credentials: ${usable.message}`, {
    details: [{ path: read.path, platform: read.platform }],
  })
}

/** Turns a network's refusal into the contract's error; any other error goes on up. */
export function networkReadError(err: unknown, read: NetworkRead): unknown {
  if (!(err instanceof NetworkFailure)) return err
  if (err.kind === 'rate_limited')
    return new AppError('rate_limited', `${err.message} Try listing ${read.what} again later.`, {
      retryAfterSec: err.retryAfterSec ?? 60,
    })
  const why = err.kind === 'auth_expired' ? `${err.message} (reconnect the account)` : err.message
  return new AppError('invalid_option', `${capitalised(read.what)} could not be listed: ${why}`, {
    details: [{ path: read.path, platform: read.platform }],
  })
}

const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)

/**
 * One read of the account's network through its adapter (`call`, given the account's usable
 * credentials and where to reach the network), its refusals turned into the contract's errors.
 */
export async function readFromNetwork<T>(
  deps: CredentialDeps,
  account: AccountCredentialsRow,
  options: { adapter: NetworkAdapter; read: NetworkRead; call: (input: BoardsInput) => Promise<T> },
): Promise<T> {
  const { adapter, read, call } = options
  const credentials = readCredentials(await usableCredentials(deps, account, adapter), read)
  try {
    return await call({
      accountId: account.id,
      connection: account.connection,
      credentials,
      fetch: deps.networks.fetch,
      baseUrl: deps.networks.baseUrlFor(account.platform, account.connection, credentials),
      now: deps.clock.now(),
    })
  } catch (err) {
    throw networkReadError(err, read)
  }
}

/**
 * What the network lists now, or null when it cannot tell (down, rate limited, credentials
 * refused): a value checked against it is then accepted, and the publish decides.
 */
export async function listedNow<T>(list: () => Promise<T[]>): Promise<T[] | null> {
  try {
    return await list()
  } catch (err) {
    if (err instanceof AppError) return null
    throw err
  }
}

/** 422 `invalid_option` with every value the listing lacks in its details; nothing when all were listed. */
export function refuseUnlisted(details: Array<{ message: string; path: string }>): void {
  if (details.length === 0) return
  const more = details.length - 1
  const message =
    more === 0 ? details[0]!.message : `${details[0]!.message} (${more} more problem${more > 1 ? 's' : ''} in details)`
  throw new AppError('invalid_option', message, { details })
}
