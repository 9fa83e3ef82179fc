/**
 * Queries that read collected analytics: follower snapshots per account and day, the latest metric
 * snapshot of each published target, and the publishing history best times are computed from.
 */
import { and, asc, desc, eq, gte, inArray, lte, sql } from 'drizzle-orm'
import { accounts, followerSnapshots, targetMetricSnapshots, targets } from '../schema'
import type { DbOrTx } from '../types'
import type { PlatformId } from '../../domain/vocabulary'
import { accountScopeConditions, type ScopeFilter } from './scope'

export type FollowerSnapshotRow = typeof followerSnapshots.$inferSelect

/** The workspace's accounts as analytics lists them, oldest first (with `scope`: a group's, a limited caller's). */
export function listAnalyticsAccounts(db: DbOrTx, workspaceId: string, scope: ScopeFilter = {}) {
  return db
    .select({ id: accounts.id, platform: accounts.platform, username: accounts.username, status: accounts.status })
    .from(accounts)
    .where(and(eq(accounts.workspaceId, workspaceId), ...accountScopeConditions(sql`${accounts.id}`, scope)))
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

/** The latest metric snapshot of the outer query's target (all its columns), to join laterally as `last`. */
export const latestTargetSnapshot = (db: DbOrTx) =>
  db
    .select()
    .from(targetMetricSnapshots)
    .where(eq(targetMetricSnapshots.targetId, targets.id))
    .orderBy(desc(targetMetricSnapshots.collectedAt))
    .limit(1)
    .as('last')

/** A post's engagement from its mature figures, as `engagementOf` counts it: null when none was reported. */
const matureEngagement = sql<number | null>`case when num_nonnulls(${targets.matureLikes}, ${targets.matureComments},
  ${targets.matureShares}, ${targets.matureSaves}) = 0 then null else coalesce(${targets.matureLikes}, 0)
  + coalesce(${targets.matureComments}, 0) + coalesce(${targets.matureShares}, 0) + coalesce(${targets.matureSaves}, 0) end`

export interface PublishingWindow {
  timezone: string
  from: Date
  until: Date
  /** The groups whose accounts' targets count (a limited caller's); null or absent: every account. */
  visibleGroupIds?: readonly string[] | null | undefined
}

/**
 * The workspace's PUBLISHED targets published between `from` and `until` (the history best times
 * read), on accounts of `visibleGroupIds` when given.
 */
const inWindow = (workspaceId: string, window: PublishingWindow) =>
  and(
    eq(targets.workspaceId, workspaceId),
    eq(targets.status, 'PUBLISHED'),
    gte(targets.publishedAt, window.from),
    lte(targets.publishedAt, window.until),
    ...accountScopeConditions(sql`${targets.accountId}`, { visibleGroupIds: window.visibleGroupIds }),
  )

/**
 * The local hour of the week a target was published in `timezone`, 0 (Sunday 00:00) to 167: one
 * time-zone conversion per row (the costly part of the scan), where the weekday and the hour
 * extracted apart took two. Whole hours since 1970-01-01 00:00 local, a Thursday (weekday 4): + 4 * 24.
 */
const localHourOfWeek = (timezone: string) =>
  sql<number>`((floor(extract(epoch from (${targets.publishedAt} at time zone ${timezone})) / 3600)::bigint + 96) % 168)::int`

/**
 * The history by slot, for best times: per platform, account and local hour of the week, the
 * targets published there, those with mature figures (`samples`) and the sum of their engagement.
 * A hash aggregate: nothing is sorted. Mature figures are those of a target's latest snapshot taken
 * at least 48 hours after publication, which a trigger keeps on the target (migration 0005).
 */
export function selectSlotTotals(db: DbOrTx, workspaceId: string, window: PublishingWindow) {
  const slot = localHourOfWeek(window.timezone)
  return db
    .select({
      platform: targets.platform,
      accountId: targets.accountId,
      // Grouped by its name: the zone is a parameter, and written twice it would be two expressions.
      hourOfWeek: slot.as('hour_of_week'),
      samples: sql<number>`count(${matureEngagement})::int`,
      total: sql<number>`coalesce(sum(${matureEngagement}), 0)::float8`,
    })
    .from(targets)
    .where(inWindow(workspaceId, window))
    .groupBy(targets.platform, targets.accountId, sql`hour_of_week`)
}

/**
 * The medians best times scale by, over the same history: one row per platform and account (its
 * `median` engagement), one per platform (`posts`, `samples`, `median`), and one with neither whose
 * `pooledMedian` is the median over the `pooled` platforms. No local time is needed here, so the
 * rows are only sorted by platform and account (the slots are `selectSlotTotals`).
 */
export function selectEngagementMedians(
  db: DbOrTx,
  workspaceId: string,
  window: PublishingWindow & { pooled: readonly PlatformId[] },
) {
  const pooled = window.pooled.length ? inArray(targets.platform, [...window.pooled]) : sql`false`
  return db
    .select({
      platform: targets.platform,
      accountId: targets.accountId,
      posts: sql<number>`count(*)::int`,
      samples: sql<number>`count(${matureEngagement})::int`,
      median: sql<number | null>`percentile_cont(0.5) within group (order by ${matureEngagement})`,
      pooledMedian: sql<
        number | null
      >`percentile_cont(0.5) within group (order by ${matureEngagement}) filter (where ${pooled})`,
    })
    .from(targets)
    .where(inWindow(workspaceId, window))
    .groupBy(sql`grouping sets ((${targets.platform}, ${targets.accountId}), (${targets.platform}), ())`)
}

/** The platforms the workspace has accounts on (with `scope`: a limited caller's accounts), each once. */
export function selectAccountPlatforms(db: DbOrTx, workspaceId: string, scope: ScopeFilter = {}) {
  return db
    .selectDistinct({ platform: accounts.platform })
    .from(accounts)
    .where(and(eq(accounts.workspaceId, workspaceId), ...accountScopeConditions(sql`${accounts.id}`, scope)))
}

/** The latest metric snapshot of each of the targets (the caller checked they are its workspace's). */
export function selectLatestTargetSnapshots(db: DbOrTx, targetIds: string[]) {
  return db
    .selectDistinctOn([targetMetricSnapshots.targetId])
    .from(targetMetricSnapshots)
    .where(inArray(targetMetricSnapshots.targetId, targetIds))
    .orderBy(targetMetricSnapshots.targetId, desc(targetMetricSnapshots.collectedAt))
}

/** The newest `perTarget` metric snapshots of each of the targets, oldest first per target (the caller checked they are its workspace's). */
export function selectTargetTimelines(db: DbOrTx, targetIds: string[], perTarget: number) {
  const ranked = db
    .select({
      targetId: targetMetricSnapshots.targetId,
      collectedAt: targetMetricSnapshots.collectedAt,
      likes: targetMetricSnapshots.likes,
      comments: targetMetricSnapshots.comments,
      shares: targetMetricSnapshots.shares,
      views: targetMetricSnapshots.views,
      saves: targetMetricSnapshots.saves,
      clicks: targetMetricSnapshots.clicks,
      impressions: targetMetricSnapshots.impressions,
      reach: targetMetricSnapshots.reach,
      rank: sql<number>`row_number() over (partition by ${targetMetricSnapshots.targetId} order by ${targetMetricSnapshots.collectedAt} desc)`.as(
        'rank',
      ),
    })
    .from(targetMetricSnapshots)
    .where(inArray(targetMetricSnapshots.targetId, targetIds))
    .as('ranked')
  return db
    .select()
    .from(ranked)
    .where(lte(ranked.rank, perTarget))
    .orderBy(asc(ranked.targetId), asc(ranked.collectedAt))
}
