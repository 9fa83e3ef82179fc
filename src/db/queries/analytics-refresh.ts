/**
 * Queries of an analytics refresh: marking the streams of accounts as asked for
 * (`account_sync.requested_at`), the targets a pending refresh still has to read, and clearing
 * the mark once the collection pass has read them.
 */
import { and, asc, desc, eq, gte, isNotNull, isNull, lte, or, sql } from 'drizzle-orm'
import { accountSync } from '../schema/inbox'
import { accounts, targets } from '../schema'
import type { DbOrTx } from '../types'
import { latestTargetSnapshot } from './analytics'
import { DUE_TARGET_COLUMNS } from './analytics-collection'

type Stream = (typeof accountSync.$inferInsert)['stream']

/** Marks each (account, stream) as asked for at `now`; an earlier mark still waiting is kept. */
export async function markRefreshRequested(
  db: DbOrTx,
  rows: Array<{ accountId: string; stream: Stream }>,
  now: Date,
): Promise<void> {
  if (rows.length === 0) return
  await db
    .insert(accountSync)
    .values(rows.map((r) => ({ ...r, requestedAt: now })))
    .onConflictDoUpdate({
      target: [accountSync.accountId, accountSync.stream],
      set: { requestedAt: sql`coalesce(${accountSync.requestedAt}, excluded.requested_at)` },
    })
}

/** The ACTIVE accounts with a metrics refresh waiting, and since when (optionally of one workspace). */
export function selectMetricsRefreshes(db: DbOrTx, options: { workspaceId?: string; limit: number }) {
  return db
    .select({ accountId: accountSync.accountId, requestedAt: accountSync.requestedAt })
    .from(accountSync)
    .innerJoin(accounts, eq(accounts.id, accountSync.accountId))
    .where(
      and(
        eq(accountSync.stream, 'metrics'),
        isNotNull(accountSync.requestedAt),
        eq(accounts.status, 'ACTIVE'),
        options.workspaceId ? eq(accounts.workspaceId, options.workspaceId) : undefined,
      ),
    )
    .orderBy(asc(accountSync.requestedAt))
    .limit(options.limit)
}

/**
 * The published targets of a refreshed account not collected since the refresh was asked for,
 * published since `since`: newest first.
 */
export function selectTargetsToRefresh(
  db: DbOrTx,
  options: { accountId: string; requestedAt: Date; since: Date; now: Date; limit: number },
) {
  const last = latestTargetSnapshot(db)
  return db
    .select(DUE_TARGET_COLUMNS)
    .from(targets)
    .leftJoinLateral(last, sql`true`)
    .where(
      and(
        eq(targets.accountId, options.accountId),
        eq(targets.status, 'PUBLISHED'),
        isNotNull(targets.platformPostId),
        gte(targets.publishedAt, options.since),
        lte(targets.publishedAt, options.now),
        or(isNull(last.collectedAt), sql`${last.collectedAt} < ${options.requestedAt.toISOString()}::timestamptz`),
      ),
    )
    .orderBy(desc(targets.publishedAt), desc(targets.id))
    .limit(options.limit)
}

/** Clears the accounts' metrics refresh when it is still the one that was read (a newer ask stays). */
export async function clearMetricsRefresh(
  db: DbOrTx,
  done: Array<{ accountId: string; requestedAt: Date }>,
  outcome: { at: Date; error: { code: string; message: string } | null },
): Promise<void> {
  for (const d of done) {
    await db
      .update(accountSync)
      .set({
        requestedAt: null,
        ...(outcome.error ? { lastError: outcome.error } : { lastSuccessAt: outcome.at, lastError: null }),
      })
      .where(
        and(
          eq(accountSync.accountId, d.accountId),
          eq(accountSync.stream, 'metrics'),
          lte(accountSync.requestedAt, d.requestedAt),
        ),
      )
  }
}

/** The workspace's accounts a refresh may name: all of them, or the one asked for (none: not the workspace's). */
export function selectRefreshAccounts(db: DbOrTx, workspaceId: string, accountId?: string) {
  return db
    .select({ id: accounts.id, platform: accounts.platform, status: accounts.status })
    .from(accounts)
    .where(and(eq(accounts.workspaceId, workspaceId), accountId ? eq(accounts.id, accountId) : undefined))
    .orderBy(asc(accounts.createdAt), asc(accounts.id))
}
