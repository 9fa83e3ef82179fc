/**
 * `GET /v1/analytics`: followers per account (the latest count and a daily series of the last
 * `SERIES_DAYS` days of the workspace's calendar) and the figures of recently published targets,
 * each with the moment it was collected. Null is unknown (not reported or not collected), never 0.
 */
import {
  listAnalyticsAccounts,
  selectFollowerSnapshotsSince,
  selectLatestFollowerSnapshots,
  selectRecentPublishedTargets,
} from '../../db/queries/analytics'
import { findWorkspaceTimezone } from '../../db/queries/workspaces'
import type { Db } from '../../db/types'
import type { PlatformId } from '../../domain/vocabulary'
import { rulesFor } from '../../domain/rules/index'
import type { PostMetric } from '../../domain/rules/schema'
import { engagementOf, type MetricFigures } from './engagement'

export const SERIES_DAYS = 30
export const RECENT_POST_DAYS = 30
export const RECENT_POSTS_MAX = 100

export interface AccountAnalytics {
  accountId: string
  platform: PlatformId
  username: string
  status: string
  reports: { followers: boolean; postMetrics: PostMetric[] }
  followers: { value: number | null; collectedAt: string | null }
  series: Array<{ day: string; followers: number | null; collectedAt: string | null }>
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
}

export interface Analytics {
  timezone: string
  generatedAt: string
  accounts: AccountAnalytics[]
  recentPosts: PostAnalytics[]
}

/** `YYYY-MM-DD` of `at` in `timezone`. */
export function localDay(at: Date, timezone: string): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: timezone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(at)
}

/** The `count` calendar days ending with `lastDay`, oldest first. */
function daysEnding(lastDay: string, count: number): string[] {
  const [y, m, d] = lastDay.split('-').map(Number) as [number, number, number]
  return Array.from({ length: count }, (_, i) =>
    new Date(Date.UTC(y, m - 1, d - (count - 1 - i))).toISOString().slice(0, 10),
  )
}

/** The periods a reader can ask for, in days (the API's is `SERIES_DAYS`). */
export const ANALYTICS_PERIODS = [7, 30, 90] as const

/**
 * The analytics of the last `days` days of the workspace's calendar (default `SERIES_DAYS`): the
 * follower series covers them, and the posts are those published in as many days before `now`.
 */
export async function getAnalytics(
  db: Db,
  workspaceId: string,
  now: Date,
  options: { days?: number; maxPosts?: number } = {},
): Promise<Analytics> {
  const timezone = (await findWorkspaceTimezone(db, workspaceId)) ?? 'UTC'
  const period = options.days ?? SERIES_DAYS
  const days = daysEnding(localDay(now, timezone), period)

  const accountRows = await listAnalyticsAccounts(db, workspaceId)
  const ids = accountRows.map((a) => a.id)
  const snapshots = ids.length ? await selectFollowerSnapshotsSince(db, ids, days[0]!) : []
  const latest = ids.length ? await selectLatestFollowerSnapshots(db, ids) : []
  const latestBy = new Map(latest.map((s) => [s.accountId, s]))
  const seriesBy = new Map(snapshots.map((s) => [`${s.accountId}:${s.day}`, s]))

  const accountList: AccountAnalytics[] = accountRows.map((a) => {
    const platform = a.platform
    const rules = rulesFor(platform).insights
    const last = latestBy.get(a.id)
    return {
      accountId: a.id,
      platform,
      username: a.username,
      status: a.status,
      reports: { followers: rules.followers, postMetrics: [...rules.postMetrics] },
      followers: { value: last?.followers ?? null, collectedAt: last?.collectedAt.toISOString() ?? null },
      series: days.map((day) => {
        const s = seriesBy.get(`${a.id}:${day}`)
        return { day, followers: s?.followers ?? null, collectedAt: s?.collectedAt.toISOString() ?? null }
      }),
    }
  })
  return {
    timezone,
    generatedAt: now.toISOString(),
    accounts: accountList,
    recentPosts: await recentPosts(db, workspaceId, now, {
      days: options.days ?? RECENT_POST_DAYS,
      max: options.maxPosts ?? RECENT_POSTS_MAX,
    }),
  }
}

async function recentPosts(
  db: Db,
  workspaceId: string,
  now: Date,
  period: { days: number; max: number },
): Promise<PostAnalytics[]> {
  const since = new Date(now.getTime() - period.days * 86_400_000)
  const rows = await selectRecentPublishedTargets(db, workspaceId, since, period.max)
  return rows.map((r) => {
    const metrics: MetricFigures = {
      likes: r.likes,
      comments: r.comments,
      shares: r.shares,
      views: r.views,
      saves: r.saves,
    }
    return {
      targetId: r.targetId,
      postId: r.postId,
      accountId: r.accountId,
      platform: r.platform,
      publishedAt: r.publishedAt!.toISOString(),
      permalink: r.permalink,
      collectedAt: r.collectedAt ? new Date(r.collectedAt).toISOString() : null,
      metrics,
      engagement: engagementOf(metrics),
    }
  })
}
