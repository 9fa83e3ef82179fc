/**
 * `GET /v1/analytics`: over a period of the workspace's calendar days (default the last 30), per
 * account the latest follower count and a daily series, the figures of the targets published in
 * the period, their totals overall and per network, and whether a refresh is still under way.
 * Null is unknown (not reported or not collected), never 0.
 */
import {
  listAnalyticsAccounts,
  selectFollowerSnapshotsSince,
  selectLatestFollowerSnapshots,
} from '../../db/queries/analytics'
import { selectPeriodTargets, selectRefreshingAccounts, type PeriodTargetRow } from '../../db/queries/analytics-period'
import { findWorkspaceTimezone } from '../../db/queries/workspaces'
import type { Db } from '../../db/types'
import { notFound } from '../../domain/errors'
import type { ScopeFilter } from '../../db/queries/scope'
import type { PlatformId } from '../../domain/vocabulary'
import { rulesFor } from '../../domain/rules/index'
import type { PostMetric } from '../../domain/rules/schema'
import { engagementOf, engagementRateOf, type MetricFigures, reportedFigures } from './engagement'
import { localDay, periodOf, SERIES_DAYS } from './period'
import { periodTotals, type PeriodTotals } from './totals'

export { localDay, SERIES_DAYS }
export const RECENT_POSTS_MAX = 100

export interface AccountAnalytics {
  accountId: string
  platform: PlatformId
  username: string
  status: string
  reports: { followers: boolean; postMetrics: PostMetric[] }
  followers: { value: number | null; collectedAt: string | null }
  series: Array<{ day: string; followers: number | null; collectedAt: string | null }>
  refreshing: boolean
}

export interface PostAnalytics {
  targetId: string
  postId: string
  accountId: string
  platform: PlatformId
  publishedAt: string
  permalink: string | null
  collectedAt: string | null
  metrics: MetricFigures
  engagement: number | null
  engagementRate: number | null
}

export interface Analytics extends PeriodTotals {
  timezone: string
  generatedAt: string
  period: {
    from: string
    to: string
    accountId: string | null
    platform: PlatformId | null
    groupId: string | null
    labelId: string | null
  }
  refreshing: boolean
  accounts: AccountAnalytics[]
  recentPosts: PostAnalytics[]
}

export interface AnalyticsQuery extends ScopeFilter {
  /** First calendar day (`YYYY-MM-DD`, workspace time zone). */
  from?: string
  /** Last calendar day, included. */
  to?: string
  /** Instead of `from`: the `days` days ending with `to`. */
  days?: number
  accountId?: string
  platform?: PlatformId
  maxPosts?: number
}

/** The periods a reader can ask for, in days (the API's is `SERIES_DAYS`). */
export const ANALYTICS_PERIODS = [7, 30, 90] as const

const minusDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10)

/** The analytics of the period asked for; an `accountId` that is not the workspace's is 404. */
export async function getAnalytics(
  db: Db,
  workspaceId: string,
  now: Date,
  query: AnalyticsQuery = {},
): Promise<Analytics> {
  const timezone = (await findWorkspaceTimezone(db, workspaceId)) ?? 'UTC'
  const to = query.to ?? localDay(now, timezone)
  const from = query.from ?? (query.days ? minusDays(to, query.days - 1) : undefined)
  const period = periodOf({ from, to }, now, timezone)
  const days = period.days

  const scope = { groupId: query.groupId, visibleGroupIds: query.visibleGroupIds }
  const all = await listAnalyticsAccounts(db, workspaceId, scope)
  if (query.accountId && !all.some((a) => a.id === query.accountId)) throw notFound('Account')
  const accountRows = all.filter(
    (a) => (!query.accountId || a.id === query.accountId) && (!query.platform || a.platform === query.platform),
  )
  const ids = accountRows.map((a) => a.id)
  const snapshots = ids.length ? await selectFollowerSnapshotsSince(db, ids, days[0]!) : []
  const latest = ids.length ? await selectLatestFollowerSnapshots(db, ids) : []
  const refreshing = await selectRefreshingAccounts(db, ids)
  const latestBy = new Map(latest.map((s) => [s.accountId, s]))
  const seriesBy = new Map(snapshots.map((s) => [`${s.accountId}:${s.day}`, s]))

  const accountList: AccountAnalytics[] = accountRows.map((a) => {
    const rules = rulesFor(a.platform).insights
    const last = latestBy.get(a.id)
    return {
      accountId: a.id,
      platform: a.platform,
      username: a.username,
      status: a.status,
      reports: { followers: rules.followers, postMetrics: [...rules.postMetrics] },
      followers: { value: last?.followers ?? null, collectedAt: last?.collectedAt.toISOString() ?? null },
      series: days.map((day) => {
        const s = seriesBy.get(`${a.id}:${day}`)
        return { day, followers: s?.followers ?? null, collectedAt: s?.collectedAt.toISOString() ?? null }
      }),
      refreshing: refreshing.has(a.id),
    }
  })
  const filter = {
    workspaceId,
    from: period.from,
    until: period.until,
    accountId: query.accountId,
    platform: query.platform,
    ...scope,
    labelId: query.labelId,
  }
  const rows = await selectPeriodTargets(db, filter, query.maxPosts ?? RECENT_POSTS_MAX)
  return {
    timezone,
    generatedAt: now.toISOString(),
    period: {
      from: days[0]!,
      to: days.at(-1)!,
      accountId: query.accountId ?? null,
      platform: query.platform ?? null,
      groupId: query.groupId ?? null,
      labelId: query.labelId ?? null,
    },
    refreshing: refreshing.size > 0,
    ...(await periodTotals(db, filter)),
    accounts: accountList,
    recentPosts: rows.map(postAnalytics),
  }
}

/** One published target's row as the answer gives it. */
export function postAnalytics(r: PeriodTargetRow): PostAnalytics {
  const metrics = reportedFigures(r.platform, r.collectedAt ? r : null)
  const engagement = engagementOf(metrics)
  return {
    targetId: r.targetId,
    postId: r.postId,
    accountId: r.accountId,
    platform: r.platform,
    publishedAt: r.publishedAt!.toISOString(),
    permalink: r.permalink,
    collectedAt: r.collectedAt ? new Date(r.collectedAt).toISOString() : null,
    metrics,
    engagement,
    engagementRate: engagementRateOf(metrics, engagement).rate,
  }
}
