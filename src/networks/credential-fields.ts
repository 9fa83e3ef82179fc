/** Reading an account's stored credentials in an adapter: a required field, and a token's expiry. */
import { NetworkFailure } from './network-failure'

/** A string credential, or a rejection naming the missing field (credentials are checked when stored). */
export function credential(credentials: Record<string, unknown>, field: string): string {
  const value = credentials[field]
  if (typeof value !== 'string' || value === '')
    throw new NetworkFailure('rejected', `The account's credentials lack ${field}: reconnect the account.`)
  return value
}

/** True when an ISO `expiresAt` credential is past, or within `marginSec` of now. */
export function expiresWithin(credentials: Record<string, unknown>, now: Date, marginSec: number): boolean {
  const at = typeof credentials.expiresAt === 'string' ? Date.parse(credentials.expiresAt) : NaN
  return !Number.isNaN(at) && at - now.getTime() <= marginSec * 1000
}

/** ISO time `seconds` from now: the `expiresAt` to store for a token that lasts `expires_in`. */
export const expiresAtFrom = (now: Date, seconds: number): string =>
  new Date(now.getTime() + seconds * 1000).toISOString()
