/**
 * The sync's bookkeeping (services/inbox/sync.ts): one `account_sync` row per account and stream,
 * with its cursor, its next run, its lease and its backoff; one `target_comment_sync` row per
 * published target whose comments are read.
 */
import { and, asc, eq, inArray, isNotNull, isNull, lte, ne, or, sql } from 'drizzle-orm'
import type { SyncStream } from '../../domain/vocabulary'
import { accounts, accountSync, type StoredFailure, targetCommentSync } from '../schema'
import type { DbOrTx } from '../types'

export type AccountSyncRow = typeof accountSync.$inferSelect

/** The streams each platform syncs, decided by the caller from the rules registry. */
export interface StreamPlan {
  stream: Exclude<SyncStream, 'metrics'>
  platforms: string[]
}

/**
 * Adds the missing stream rows of every ACTIVE account on a platform that has the stream. The first
 * run of each is spread over `spreadSec` by a hash of the account id (`spreadSec` 0: due now), so
 * many accounts connected at once do not all sync in the same minute.
 */
export async function insertMissingSyncRows(
  db: DbOrTx,
  input: {
    plans: StreamPlan[]
    now: Date
    spreadSec: (connection: string) => number
    accountId?: string
    /** Only this workspace's accounts (a pass run for one workspace). */
    workspaceId?: string
  },
): Promise<number> {
  let added = 0
  for (const plan of input.plans) {
    if (plan.platforms.length === 0) continue
    const rows = await db
      .select({ id: accounts.id, connection: accounts.connection })
      .from(accounts)
      .leftJoin(accountSync, and(eq(accountSync.accountId, accounts.id), eq(accountSync.stream, plan.stream)))
      .where(
        and(
          eq(accounts.status, 'ACTIVE'),
          inArray(accounts.platform, plan.platforms as never[]),
          isNull(accountSync.accountId),
          input.workspaceId ? eq(accounts.workspaceId, input.workspaceId) : undefined,
        ),
      )
      .limit(1000)
    if (rows.length === 0) continue
    const values = rows.map((r) => ({
      accountId: r.id,
      stream: plan.stream,
      nextRunAt: new Date(input.now.getTime() + spreadOf(r.id, input.spreadSec(r.connection)) * 1000),
    }))
    await db.insert(accountSync).values(values).onConflictDoNothing()
    added += values.length
  }
  return added
}

/** A stable offset in [0, spreadSec) for the account. */
function spreadOf(accountId: string, spreadSec: number): number {
  if (spreadSec <= 0) return 0
  let h = 0
  for (const c of accountId) h = (h * 31 + c.charCodeAt(0)) >>> 0
  return h % spreadSec
}

/** A stream is due when its time came or a refresh was asked for, it is not backing off nor held. */
function dueCondition(now: Date) {
  return and(
    ne(accountSync.stream, 'metrics'),
    or(lte(accountSync.nextRunAt, now), isNotNull(accountSync.requestedAt)),
    or(isNull(accountSync.backoffUntil), lte(accountSync.backoffUntil, now)),
    or(isNull(accountSync.leaseUntil), lte(accountSync.leaseUntil, now)),
  )
}

/** ACTIVE accounts with a due stream, the longest waiting first. */
export async function selectDueSyncAccounts(
  db: DbOrTx,
  input: { now: Date; limit: number; workspaceId?: string },
): Promise<string[]> {
  const { now, limit } = input
  const rows = await db
    .select({ id: accountSync.accountId, first: sql<Date>`min(${accountSync.nextRunAt})` })
    .from(accountSync)
    .innerJoin(accounts, eq(accounts.id, accountSync.accountId))
    .where(
      and(
        eq(accounts.status, 'ACTIVE'),
        dueCondition(now),
        input.workspaceId ? eq(accounts.workspaceId, input.workspaceId) : undefined,
      ),
    )
    .groupBy(accountSync.accountId)
    .orderBy(asc(sql`min(${accountSync.nextRunAt})`), asc(accountSync.accountId))
    .limit(limit)
  return rows.map((r) => r.id)
}

/**
 * Takes the account's lease: every stream row of the account at once, only when none is held.
 * Answers the rows taken (empty: another sync holds the account, or it has no streams).
 */
export async function takeSyncLease(
  db: DbOrTx,
  input: { accountId: string; holder: string; now: Date; until: Date },
): Promise<AccountSyncRow[]> {
  return db
    .update(accountSync)
    .set({ leaseUntil: input.until, leaseHolder: input.holder })
    .where(
      and(
        eq(accountSync.accountId, input.accountId),
        ne(accountSync.stream, 'metrics'),
        or(isNull(accountSync.leaseUntil), lte(accountSync.leaseUntil, input.now)),
      ),
    )
    .returning()
}

export async function releaseSyncLease(db: DbOrTx, accountId: string, holder: string): Promise<void> {
  await db
    .update(accountSync)
    .set({ leaseUntil: null, leaseHolder: null })
    .where(and(eq(accountSync.accountId, accountId), eq(accountSync.leaseHolder, holder)))
}

/** Saves a stream's cursor while it pages, under the lease. */
export async function saveStreamCursor(
  db: DbOrTx,
  input: { accountId: string; stream: SyncStream; holder: string; cursor: string | null },
): Promise<void> {
  await db
    .update(accountSync)
    .set({ cursor: input.cursor })
    .where(
      and(
        eq(accountSync.accountId, input.accountId),
        eq(accountSync.stream, input.stream),
        eq(accountSync.leaseHolder, input.holder),
      ),
    )
}

export interface StreamOutcome {
  accountId: string
  stream: SyncStream
  holder: string
  nextRunAt: Date
  /** null: the run succeeded. */
  failure: { error: StoredFailure; backoffUntil: Date } | null
  now: Date
}

/**
 * A refresh asked for by the run's start is answered by the run, failed or not (GET /v1/analytics
 * stops showing it as refreshing; a failure shows in the account's health); one asked for later stays.
 */
const answeredRefresh = (runStart: Date) =>
  sql`case when ${accountSync.requestedAt} <= ${runStart.toISOString()}::timestamptz then null else ${accountSync.requestedAt} end`

/** Records how a stream's run ended: success clears the failures, a failure counts and backs off. */
export async function finishStream(db: DbOrTx, outcome: StreamOutcome): Promise<void> {
  const where = and(
    eq(accountSync.accountId, outcome.accountId),
    eq(accountSync.stream, outcome.stream),
    eq(accountSync.leaseHolder, outcome.holder),
  )
  if (!outcome.failure) {
    await db
      .update(accountSync)
      .set({
        nextRunAt: outcome.nextRunAt,
        failures: 0,
        backoffUntil: null,
        lastError: null,
        lastSuccessAt: outcome.now,
        requestedAt: answeredRefresh(outcome.now),
      })
      .where(where)
    return
  }
  await db
    .update(accountSync)
    .set({
      nextRunAt: outcome.nextRunAt,
      failures: sql`${accountSync.failures} + 1`,
      backoffUntil: outcome.failure.backoffUntil,
      lastError: outcome.failure.error,
      requestedAt: answeredRefresh(outcome.now),
    })
    .where(where)
}

/** Holds every stream of the account back until `until` (the network asked it to wait). */
export async function backOffAccount(db: DbOrTx, accountId: string, until: Date): Promise<void> {
  await db
    .update(accountSync)
    .set({ backoffUntil: until })
    .where(and(eq(accountSync.accountId, accountId), ne(accountSync.stream, 'metrics')))
}

/** Every stream row of these accounts (health). */
export function selectSyncRows(db: DbOrTx, accountIds: string[]): Promise<AccountSyncRow[]> {
  if (accountIds.length === 0) return Promise.resolve([])
  return db
    .select()
    .from(accountSync)
    .where(and(inArray(accountSync.accountId, accountIds), ne(accountSync.stream, 'metrics')))
}

export type TargetCommentSyncRow = typeof targetCommentSync.$inferSelect

export async function upsertTargetCommentSync(
  db: DbOrTx,
  row: {
    targetId: string
    accountId: string
    cursor: string | null
    lastCommentAt: Date | null
    syncedAt: Date
    nextRunAt: Date
  },
): Promise<void> {
  await db
    .insert(targetCommentSync)
    .values(row)
    .onConflictDoUpdate({
      target: targetCommentSync.targetId,
      set: { cursor: row.cursor, lastCommentAt: row.lastCommentAt, syncedAt: row.syncedAt, nextRunAt: row.nextRunAt },
    })
}

/** The account as a sync run needs it; null when there is none. */
export async function selectSyncAccount(db: DbOrTx, accountId: string) {
  const [row] = await db
    .select({
      id: accounts.id,
      workspaceId: accounts.workspaceId,
      platform: accounts.platform,
      connection: accounts.connection,
      credentials: accounts.credentials,
      status: accounts.status,
    })
    .from(accounts)
    .where(eq(accounts.id, accountId))
  return row ?? null
}
