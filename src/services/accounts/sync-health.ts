/**
 * An account's inbox sync in words (the `sync` field of the account record): when its posts,
 * comments and mentions were last read, the failure a stream keeps hitting, and when the next
 * attempt is due. Built from its `account_sync` rows (services/inbox/sync.ts writes them).
 */
import type { AccountSyncRow } from '../../db/queries/sync'

export interface AccountSyncHealth {
  /** `ok`: every stream's last run succeeded; `failing`: a stream keeps failing; `pending`: not read yet. */
  status: 'ok' | 'failing' | 'pending'
  /** The latest successful read of any stream; null when none succeeded yet. */
  lastSuccessAt: string | null
  /** The failure of the stream failing longest (most failures in a row); null when none fails. */
  lastError: { stream: string; code: string; message: string; failures: number } | null
  /** When the sync reads this account next (a backoff counts); null when nothing is planned. */
  nextAttemptAt: string | null
}

const latest = (dates: Array<Date | null>) =>
  dates.reduce<Date | null>((best, d) => (d && (!best || d > best) ? d : best), null)

/** null: the account has no sync rows (its network offers nothing to read, or it was never synced). */
export function syncHealthOf(rows: AccountSyncRow[]): AccountSyncHealth | null {
  if (rows.length === 0) return null
  const failing = rows.filter((r) => r.failures > 0 && r.lastError).sort((a, b) => b.failures - a.failures)
  const worst = failing[0]
  const attempts = rows
    .map((r) => latest([r.nextRunAt, r.backoffUntil]))
    .filter((d): d is Date => d !== null)
    .sort((a, b) => a.getTime() - b.getTime())
  const lastSuccess = latest(rows.map((r) => r.lastSuccessAt))
  return {
    status: worst ? 'failing' : lastSuccess ? 'ok' : 'pending',
    lastSuccessAt: lastSuccess?.toISOString() ?? null,
    lastError: worst
      ? {
          stream: worst.stream,
          code: worst.lastError!.code,
          message: worst.lastError!.message,
          failures: worst.failures,
        }
      : null,
    nextAttemptAt: attempts[0]?.toISOString() ?? null,
  }
}
