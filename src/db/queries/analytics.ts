/**
 * Queries that read collected analytics: follower snapshots per account and day, the latest metric
 * snapshot of each published target, and the publishing history best times are computed from.
 */
import { and, asc, desc, eq, gte, inArray, lte, sql } from 'drizzle-orm'
import { accounts, followerSnapshots, targetMetricSnapshots, targets } from '../schema'
import type { DbOrTx } from '../types'
import type { PlatformId } from '../../domain/vocabulary'

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

/** A post's engagement from its mature figures, as `engagementOf` counts it: null when none was reported. */
const matureEngagement = sql<number | null>`case when num_nonnulls(${targets.matureLikes}, ${targets.matureComments},
  ${targets.matureShares}, ${targets.matureSaves}) = 0 then null else coalesce(${targets.matureLikes}, 0)
  + coalesce(${targets.matureComments}, 0) + coalesce(${targets.matureShares}, 0) + coalesce(${targets.matureSaves}, 0) end`

/**
 * The publishing history best times are computed from, summarized by the database in a few hundred
 * rows: the workspace's PUBLISHED targets published between `from` and `until`, each with the local
 * weekday and hour of publication in `timezone` and its mature figures (those of its latest snapshot
 * taken at least 48 hours after publication, which a trigger keeps on the target: migration 0005).
 *
 * Rows, told apart by which keys are null: one per platform, account and slot (`weekday`, `hour`);
 * one per platform and account (its `median` engagement); one per platform (`posts`, `samples`,
 * `median`); and one with no keys whose `pooledMedian` is the median over the `pooled` platforms.
 */
export function selectPublishingSummary(
  db: DbOrTx,
  workspaceId: string,
  window: { timezone: string; from: Date; until: Date; pooled: readonly PlatformId[] },
) {
  const local = sql`(${targets.publishedAt} at time zone ${window.timezone})`
  const history = db.$with('history').as(
    db
      .select({
        platform: targets.platform,
        accountId: targets.accountId,
        weekday: sql<number>`extract(dow from ${local})::int`.as('weekday'),
        hour: sql<number>`extract(hour from ${local})::int`.as('hour'),
        engagement: matureEngagement.as('engagement'),
      })
      .from(targets)
      .where(
        and(
          eq(targets.workspaceId, workspaceId),
          eq(targets.status, 'PUBLISHED'),
          gte(targets.publishedAt, window.from),
          lte(targets.publishedAt, window.until),
        ),
      ),
  )
  const h = history
  const pooled = window.pooled.length ? inArray(h.platform, [...window.pooled]) : sql`false`
  return db
    .with(history)
    .select({
      platform: h.platform,
      accountId: h.accountId,
      weekday: h.weekday,
      hour: h.hour,
      posts: sql<number>`count(*)::int`,
      samples: sql<number>`count(${h.engagement})::int`,
      total: sql<number>`coalesce(sum(${h.engagement}), 0)::float8`,
      median: sql<number | null>`percentile_cont(0.5) within group (order by ${h.engagement})`,
      pooledMedian: sql<
        number | null
      >`percentile_cont(0.5) within group (order by ${h.engagement}) filter (where ${pooled})`,
    })
    .from(history)
    .groupBy(
      sql`grouping sets ((${h.platform}, ${h.accountId}, ${h.weekday}, ${h.hour}), (${h.platform}, ${h.accountId}), (${h.platform}), ())`,
    )
}

/** The platforms the workspace has accounts on, each once. */
export function selectAccountPlatforms(db: DbOrTx, workspaceId: string) {
  return db.selectDistinct({ platform: accounts.platform }).from(accounts).where(eq(accounts.workspaceId, workspaceId))
}
