/**
 * Queries of `GET /v1/analytics` over a period: the published targets of the period with their
 * latest snapshot (the recent posts and the CSV rows), and whether a refresh is still pending.
 */
import { and, desc, eq, gte, inArray, isNotNull, lt, type SQLWrapper, sql } from 'drizzle-orm'
import { accountSync } from '../schema/inbox'
import { accounts, labels, postLabels, posts, targets } from '../schema'
import type { DbOrTx } from '../types'
import { latestTargetSnapshot } from './analytics'
import type { PlatformId } from '../../domain/vocabulary'
import { accountScopeConditions, postHasLabel, type ScopeFilter } from './scope'

export interface PeriodFilter extends ScopeFilter {
  workspaceId: string
  /** Published at or after this instant. */
  from: Date
  /** Published before this instant. */
  until: Date
  accountId?: string
  platform?: PlatformId
}

const inPeriod = (f: PeriodFilter) =>
  and(
    eq(targets.workspaceId, f.workspaceId),
    eq(targets.status, 'PUBLISHED'),
    gte(targets.publishedAt, f.from),
    lt(targets.publishedAt, f.until),
    f.accountId ? eq(targets.accountId, f.accountId) : undefined,
    f.platform ? eq(targets.platform, f.platform) : undefined,
    ...accountScopeConditions(sql`${targets.accountId}`, f),
    f.labelId ? postHasLabel(sql`${targets.postId}`, f.labelId) : undefined,
  )

/** The period's published targets, newest first, each with its latest snapshot (if any), its post's caption and source. */
export function selectPeriodTargets(db: DbOrTx, filter: PeriodFilter, limit: number) {
  const last = latestTargetSnapshot(db)
  return db
    .select({
      targetId: targets.id,
      postId: targets.postId,
      accountId: targets.accountId,
      platform: targets.platform,
      username: accounts.username,
      source: posts.source,
      caption: posts.caption,
      labels: sql<string | null>`(select string_agg(l.name, '|' order by lower(l.name)) from post_labels pl
        join labels l on l.id = pl.label_id where pl.post_id = ${targets.postId})`,
      publishedAt: targets.publishedAt,
      permalink: targets.permalink,
      collectedAt: last.collectedAt,
      likes: last.likes,
      comments: last.comments,
      shares: last.shares,
      views: last.views,
      saves: last.saves,
      clicks: last.clicks,
      impressions: last.impressions,
      reach: last.reach,
    })
    .from(targets)
    .innerJoin(posts, eq(posts.id, targets.postId))
    .innerJoin(accounts, eq(accounts.id, targets.accountId))
    .leftJoinLateral(last, sql`true`)
    .where(inPeriod(filter))
    .orderBy(desc(targets.publishedAt), desc(targets.id))
    .limit(limit)
}
export type PeriodTargetRow = Awaited<ReturnType<typeof selectPeriodTargets>>[number]

/** The accounts among `accountIds` with a refresh asked for and not yet done (any stream). */
export async function selectRefreshingAccounts(db: DbOrTx, accountIds: string[]): Promise<Set<string>> {
  if (accountIds.length === 0) return new Set()
  const rows = await db
    .selectDistinct({ accountId: accountSync.accountId })
    .from(accountSync)
    .where(and(inArray(accountSync.accountId, accountIds), isNotNull(accountSync.requestedAt)))
  return new Set(rows.map((r) => r.accountId))
}

/** The targets with figures, and each figure's sum over their latest snapshots (null when none has it). */
function figureSums(last: ReturnType<typeof latestTargetSnapshot>) {
  const sum = (c: SQLWrapper) => sql<number | null>`sum(${c})::float8`
  return {
    collected: sql<number>`count(${last.collectedAt})::int`,
    likes: sum(last.likes),
    comments: sum(last.comments),
    shares: sum(last.shares),
    views: sum(last.views),
    saves: sum(last.saves),
    clicks: sum(last.clicks),
    impressions: sum(last.impressions),
    reach: sum(last.reach),
  }
}

/**
 * The period's totals per platform: the targets published, those with figures, and each figure's
 * sum over the latest snapshots (null when no target has that figure).
 */
export function selectPeriodTotals(db: DbOrTx, filter: PeriodFilter) {
  const last = latestTargetSnapshot(db)
  return db
    .select({
      platform: targets.platform,
      accounts: sql<number>`count(distinct ${targets.accountId})::int`,
      posts: sql<number>`count(*)::int`,
      ...figureSums(last),
    })
    .from(targets)
    .leftJoinLateral(last, sql`true`)
    .where(inPeriod(filter))
    .groupBy(targets.platform)
    .orderBy(targets.platform)
}

/**
 * The period's totals per label of the targets' posts (a target whose post has two labels counts
 * in both; one without a label in none), as `selectPeriodTotals` sums them per network.
 */
export function selectPeriodLabelTotals(db: DbOrTx, filter: PeriodFilter) {
  const last = latestTargetSnapshot(db)
  return db
    .select({
      labelId: labels.id,
      name: labels.name,
      color: labels.color,
      platforms: sql<string[]>`array_agg(distinct ${targets.platform})`,
      posts: sql<number>`count(*)::int`,
      ...figureSums(last),
    })
    .from(targets)
    .innerJoin(postLabels, eq(postLabels.postId, targets.postId))
    .innerJoin(labels, eq(labels.id, postLabels.labelId))
    .leftJoinLateral(last, sql`true`)
    .where(inPeriod(filter))
    .groupBy(labels.id, labels.name, labels.color)
    .orderBy(sql`lower(${labels.name})`, labels.id)
}
