/**
 * How often and how gently the inbox sync reads each account (docs/inbox.md, "Sync"): its interval
 * (seconds for sandbox accounts, minutes for real networks), the lease one run holds, the backoff
 * after a failure, and how much one pass may do. Defaults here; `settings.inboxSync` overrides.
 */
export interface InboxSyncPolicy {
  /** Between two runs of an account on a real network. */
  intervalSec: number
  /** Between two runs of a sandbox account (the simulated network answers at once). */
  sandboxIntervalSec: number
  /** How long one run holds the account; past it another run may take it (a crashed process). */
  leaseSec: number
  /** The first wait after a failure; it doubles with each failure in a row, up to `backoffCapSec`. */
  backoffBaseSec: number
  backoffCapSec: number
  /** How far back posts are imported and comments are read. */
  windowDays: number
  /** Pages of one listing read in one run; the cursor keeps the place for the next run. */
  maxPages: number
  /** Published targets whose comments are read in one run of an account. */
  targetsPerRun: number
  /** Accounts synced by one pass of the scheduled job. */
  accountsPerPass: number
  /** Accounts synced at the same time within a pass. */
  concurrency: number
}

export const DEFAULT_INBOX_SYNC_POLICY: InboxSyncPolicy = {
  intervalSec: 900,
  sandboxIntervalSec: 5,
  leaseSec: 300,
  backoffBaseSec: 60,
  backoffCapSec: 6 * 3600,
  windowDays: 30,
  maxPages: 10,
  targetsPerRun: 50,
  accountsPerPass: 25,
  concurrency: 4,
}

/** The wait after `failures` failures in a row (1 = the first): base, doubled each time, capped. */
export function backoffSec(policy: InboxSyncPolicy, failures: number): number {
  const exp = Math.min(30, Math.max(0, failures - 1))
  return Math.min(policy.backoffCapSec, policy.backoffBaseSec * 2 ** exp)
}

/**
 * The next run: `intervalSec` later, moved by up to a tenth of it either way, so accounts that
 * started together drift apart instead of calling their networks in the same second.
 */
export function nextRunAt(now: Date, intervalSec: number, random: () => number = Math.random): Date {
  const jitter = (random() * 2 - 1) * 0.1 * intervalSec
  return new Date(now.getTime() + Math.round((intervalSec + jitter) * 1000))
}

/** How often published targets are read again, by their age: recent posts often, older ones less. */
export function targetIntervalSec(intervalSec: number, ageMs: number): number {
  const day = 86_400_000
  if (ageMs < 2 * day) return intervalSec
  if (ageMs < 7 * day) return intervalSec * 4
  return intervalSec * 12
}
