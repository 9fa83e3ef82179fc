/**
 * The inbox sync (docs/inbox.md, "Sync"): per account, the streams its network has (the rules
 * registry: `insights.importsPosts`, `inbox.comments`, `inbox.mentions`), each with its cursor,
 * next run and backoff in `account_sync`. One run per account at a time (a lease on its rows); a
 * failure backs that stream off exponentially (capped) and shows in the account's health; a
 * network's 429 holds every stream of that account until its Retry-After, and no other account.
 * Each pass takes a bounded number of due accounts, longest waiting first; next runs are jittered.
 * With a sync queue in the deps (QStash, the Worker) a pass only hands its due accounts over, and
 * each account's callback runs `syncAccount`; without one (Node) the pass syncs them itself.
 */
import {
  backOffAccount,
  finishStream,
  insertMissingSyncRows,
  releaseSyncLease,
  selectDueSyncAccounts,
  selectSyncAccount,
  type AccountSyncRow,
  type StreamPlan,
  takeSyncLease,
} from '../../db/queries/sync'
import { DEFAULT_INBOX_SYNC_POLICY, type InboxSyncPolicy, nextRunAt } from '../../domain/inbox-sync-policy'
import { RULES } from '../../domain/rules/index'
import { PLATFORM_IDS, type SyncStream } from '../../domain/vocabulary'
import { describeError } from '../../infra/logger'
import { randomBase62 } from '../../lib/ids'
import { NetworkFailure } from '../../networks/http'
import { CommentGone } from '../../networks/adapter'
import { usableCredentials } from '../accounts/credentials'
import { addCounts, emptyCounts, type SyncAccount, type SyncCounts, type SyncDeps, type SyncRun } from './sync-context'
import { syncComments, syncMentions } from './sync-comments'
import { syncPosts } from './sync-posts'
import { failureOf } from './sync-failure'

export type { SyncDeps } from './sync-context'

/** The streams, in the order a run reads them (imported posts first, so their comments follow). */
export const STREAM_PLANS: StreamPlan[] = [
  { stream: 'posts', platforms: PLATFORM_IDS.filter((p) => RULES[p].insights.importsPosts) },
  { stream: 'comments', platforms: PLATFORM_IDS.filter((p) => RULES[p].inbox.comments) },
  { stream: 'mentions', platforms: PLATFORM_IDS.filter((p) => RULES[p].inbox.mentions) },
]

export function syncPolicyOf(deps: Pick<SyncDeps, 'settings'>): InboxSyncPolicy {
  return { ...DEFAULT_INBOX_SYNC_POLICY, ...deps.settings.inboxSync }
}

const intervalOf = (policy: InboxSyncPolicy, connection: string) =>
  connection === 'SANDBOX' ? policy.sandboxIntervalSec : policy.intervalSec

export interface SyncReport extends SyncCounts {
  accounts: number
  failedStreams: number
  /** Accounts another run held (the lease). */
  skipped: number
  /** Accounts handed to the sync queue, each synced by its own callback. */
  queued: number
}

export interface AccountSyncResult {
  ran: boolean
  counts: SyncCounts
  failed: SyncStream[]
}

/**
 * One pass: adds the stream rows of new accounts, then syncs up to `accountsPerPass` due accounts,
 * or hands them to `deps.syncQueue` when there is one (de-duplicated per account and pass).
 */
export async function syncDueAccounts(
  deps: SyncDeps,
  options: { now: Date; limits?: Partial<InboxSyncPolicy>; workspaceId?: string },
): Promise<SyncReport> {
  const policy = { ...syncPolicyOf(deps), ...options.limits }
  await insertMissingSyncRows(deps.db, {
    plans: STREAM_PLANS,
    now: options.now,
    spreadSec: (connection) => (connection === 'SANDBOX' ? 0 : Math.min(policy.intervalSec, 300)),
    workspaceId: options.workspaceId,
  })
  const due = await selectDueSyncAccounts(deps.db, {
    now: options.now,
    limit: policy.accountsPerPass,
    workspaceId: options.workspaceId,
  })
  const report: SyncReport = { accounts: 0, failedStreams: 0, skipped: 0, queued: 0, ...emptyCounts() }
  if (deps.syncQueue) {
    await deps.syncQueue.enqueue(due.map((accountId) => ({ accountId, pass: options.now })))
    return { ...report, queued: due.length }
  }
  let next = 0
  const worker = async () => {
    while (next < due.length) {
      const accountId = due[next++]!
      const result = await syncAccount(deps, { accountId, now: options.now, policy })
      if (!result.ran) report.skipped++
      else report.accounts++
      report.failedStreams += result.failed.length
      addCounts(report, result.counts)
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(policy.concurrency, due.length)) }, worker))
  return report
}

/**
 * Syncs the account's due streams now, under its lease; answers `ran: false` when another run
 * holds it or it is not ACTIVE. Never throws for a network's failure: that is recorded on the stream.
 */
export async function syncAccount(
  deps: SyncDeps,
  options: { accountId: string; now: Date; policy?: InboxSyncPolicy; holder?: string },
): Promise<AccountSyncResult> {
  const policy = options.policy ?? syncPolicyOf(deps)
  const now = options.now
  const counts = emptyCounts()
  const account = await selectSyncAccount(deps.db, options.accountId)
  if (account?.status !== 'ACTIVE') return { ran: false, counts, failed: [] }
  const holder = options.holder ?? deps.settings.leaseHolder ?? `sync/${randomBase62(10)}`
  await insertMissingSyncRows(deps.db, { plans: STREAM_PLANS, now, spreadSec: () => 0, accountId: account.id })
  const until = new Date(now.getTime() + policy.leaseSec * 1000)
  const rows = await takeSyncLease(deps.db, { accountId: account.id, holder, now, until })
  if (rows.length === 0) return { ran: false, counts, failed: [] }
  try {
    const failed = await runStreams(deps, { account, rows, holder, now, policy, counts })
    return { ran: true, counts, failed }
  } finally {
    await releaseSyncLease(deps.db, account.id, holder)
  }
}

interface RunInput {
  account: SyncAccount
  rows: AccountSyncRow[]
  holder: string
  now: Date
  policy: InboxSyncPolicy
  counts: SyncCounts
}

const ORDER: SyncStream[] = ['posts', 'comments', 'mentions']

async function runStreams(deps: SyncDeps, input: RunInput): Promise<SyncStream[]> {
  const { account, now, policy } = input
  const due = input.rows
    .filter((r) => (r.nextRunAt !== null && r.nextRunAt <= now) || r.requestedAt !== null)
    .filter((r) => !r.backoffUntil || r.backoffUntil <= now)
    .sort((a, b) => ORDER.indexOf(a.stream) - ORDER.indexOf(b.stream))
  const failed: SyncStream[] = []
  const adapter = deps.networks.adapterFor(account.platform, account.connection)
  const interval = intervalOf(policy, account.connection)
  for (const row of due) {
    const outcome = { accountId: account.id, stream: row.stream, holder: input.holder, now }
    try {
      if (!adapter) throw new NetworkFailure('rejected', 'This connection has no network adapter to read from.')
      const run = await openRun(deps, { ...input, adapter })
      await runStream(run, row, interval)
      await finishStream(deps.db, { ...outcome, nextRunAt: nextRunAt(now, interval), failure: null })
    } catch (err) {
      failed.push(row.stream)
      const failure = failureOf(err, policy, row.failures + 1, now)
      logFailure(deps, account, row.stream, err)
      await finishStream(deps.db, { ...outcome, nextRunAt: failure.backoffUntil, failure })
      // The network asked this account to wait: its other streams wait too; other accounts do not.
      if (err instanceof NetworkFailure && err.kind === 'rate_limited') {
        await backOffAccount(deps.db, account.id, failure.backoffUntil)
        break
      }
    }
  }
  return failed
}

async function openRun(
  deps: SyncDeps,
  input: RunInput & { adapter: NonNullable<ReturnType<SyncDeps['networks']['adapterFor']>> },
): Promise<SyncRun> {
  const { account, adapter, now } = input
  const usable = await usableCredentials(deps, account, adapter)
  if (!usable.ok) throw new NetworkFailure(usable.kind, usable.message, usable.retryAfterSec)
  const credentials = usable.credentials
  return {
    deps,
    account,
    adapter,
    call: {
      accountId: account.id,
      connection: account.connection,
      credentials,
      fetch: deps.networks.fetch,
      baseUrl: deps.networks.baseUrlFor(account.platform, account.connection, credentials),
      now,
    },
    holder: input.holder,
    now,
    policy: input.policy,
    counts: input.counts,
  }
}

async function runStream(run: SyncRun, row: AccountSyncRow, interval: number): Promise<void> {
  if (row.stream === 'posts') return syncPosts(run, row)
  if (row.stream === 'comments') return syncComments(run, interval)
  if (row.stream === 'mentions') return syncMentions(run, row)
}

/** Ids and the error's class only: a network's answer may quote tokens, and comments are never logged. */
function logFailure(deps: SyncDeps, account: SyncAccount, stream: SyncStream, err: unknown): void {
  const fields = { accountId: account.id, platform: account.platform, stream, ...describeError(err) }
  if (err instanceof NetworkFailure || err instanceof CommentGone) deps.logger.warn('inbox_sync_failed', fields)
  else deps.logger.error('inbox_sync_failed', { ...fields, unexpected: true })
}
