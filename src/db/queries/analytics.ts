/**
 * Queries that read collected analytics: follower snapshots per account and day, the latest metric
 * snapshot of each published target, and the publishing history best times are computed from.
 */
import { and, asc, desc, eq, gte, inArray, lte, sql } from 'drizzle-orm'
import { accounts, followerSnapshots, targetMetricSnapshots, targets } from '../schema'
import type { DbOrTx } from '../types'

export type FollowerSnapshotRow = typeof followerSnapshots.$inferSelect

/** The workspace's accounts as analytics lists them, oldest first. */
export function listAnalyticsAccounts(db: DbOrTx, workspaceId: string) {
  return db
    .select({ id: accounts.id, platform: accounts.platform, username: accounts.username, status: accounts.status })
    .from(accounts)
    .where(eq(accounts.workspaceId, workspaceId))
    .orderBy(asc(accounts.createdAt), asc(accounts.id))
}

/** The accounts' follower snapshots from `firstDay` (`YYYY-MM-DD`) on. */
export function selectFollowerSnapshotsSince(
  db: DbOrTx,
  accountIds: string[],
  firstDay: string,
): Promise<FollowerSnapshotRow[]> {
  return db
    .select()
    .from(followerSnapshots)
    .where(and(inArray(followerSnapshots.accountId, accountIds), gte(followerSnapshots.day, firstDay)))
}

/** Each account's most recent follower snapshot. */
export function selectLatestFollowerSnapshots(db: DbOrTx, accountIds: string[]): Promise<FollowerSnapshotRow[]> {
  return db
    .selectDistinctOn([followerSnapshots.accountId])
    .from(followerSnapshots)
    .where(inArray(followerSnapshots.accountId, accountIds))
    .orderBy(followerSnapshots.accountId, desc(followerSnapshots.day))
}

/** The workspace's targets published since `since`, newest first, each with its latest metric snapshot (if any). */
export function selectRecentPublishedTargets(db: DbOrTx, workspaceId: string, since: Date, limit: number) {
  const last = db
    .select()
    .from(targetMetricSnapshots)
    .where(eq(targetMetricSnapshots.targetId, targets.id))
    .orderBy(desc(targetMetricSnapshots.collectedAt))
    .limit(1)
    .as('last')
  return db
    .select({
      targetId: targets.id,
      postId: targets.postId,
      accountId: targets.accountId,
      platform: targets.platform,
      publishedAt: targets.publishedAt,
      permalink: targets.permalink,
      collectedAt: last.collectedAt,
      likes: last.likes,
      comments: last.comments,
      shares: last.shares,
      views: last.views,
      saves: last.saves,
    })
    .from(targets)
    .leftJoinLateral(last, sql`true`)
    .where(and(eq(targets.workspaceId, workspaceId), eq(targets.status, 'PUBLISHED'), gte(targets.publishedAt, since)))
    .orderBy(desc(targets.publishedAt), desc(targets.id))
    .limit(limit)
}

/**
 * The workspace's targets published between `from` and `until`, with the local weekday and hour
 * of publication in `timezone` and the figures of their latest snapshot taken at least
 * `matureAfterHours` after publication.
 */
export function selectPublishingHistory(
  db: DbOrTx,
  workspaceId: string,
  window: { timezone: string; from: Date; until: Date; matureAfterHours: number },
) {
  const latest = db
    .select({
      likes: targetMetricSnapshots.likes,
      comments: targetMetricSnapshots.comments,
      shares: targetMetricSnapshots.shares,
      saves: targetMetricSnapshots.saves,
    })
    .from(targetMetricSnapshots)
    .where(
      and(
        eq(targetMetricSnapshots.targetId, targets.id),
        sql`${targetMetricSnapshots.collectedAt} >= ${targets.publishedAt} + ${sql.raw(`interval '${window.matureAfterHours} hours'`)}`,
      ),
    )
    .orderBy(desc(targetMetricSnapshots.collectedAt))
    .limit(1)
    .as('latest')
  const local = sql`(${targets.publishedAt} at time zone ${window.timezone})`
  return db
    .select({
      accountId: targets.accountId,
      platform: targets.platform,
      weekday: sql<number>`extract(dow from ${local})::int`,
      hour: sql<number>`extract(hour from ${local})::int`,
      likes: latest.likes,
      comments: latest.comments,
      shares: latest.shares,
      saves: latest.saves,
    })
    .from(targets)
    .leftJoinLateral(latest, sql`true`)
    .where(
      and(
        eq(targets.workspaceId, workspaceId),
        eq(targets.status, 'PUBLISHED'),
        gte(targets.publishedAt, window.from),
        lte(targets.publishedAt, window.until),
      ),
    )
}

/** The platforms the workspace has accounts on, each once. */
export function selectAccountPlatforms(db: DbOrTx, workspaceId: string) {
  return db.selectDistinct({ platform: accounts.platform }).from(accounts).where(eq(accounts.workspaceId, workspaceId))
}
