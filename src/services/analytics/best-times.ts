/**
 * `GET /v1/best-times`: the workspace's publishing history read from the database, handed to the
 * statistics of best-times-stats.ts, overall and per platform.
 *
 * History: the workspace's PUBLISHED targets (for a caller limited to groups, those on its groups'
 * accounts) published between `LOOKBACK_DAYS` days and `MATURE_AFTER_HOURS` hours ago (younger
 * posts are still gathering interactions). A post's figures are its latest metric snapshot taken
 * at least `MATURE_AFTER_HOURS` after publication, which a trigger keeps on the target as
 * snapshots arrive: a report reads one row per post.
 * `overall` pools the platforms whose network reports per-post interactions.
 */
import { selectAccountPlatforms, selectEngagementMedians, selectSlotTotals } from '../../db/queries/analytics'
import { findWorkspaceTimezone } from '../../db/queries/workspaces'
import type { Db } from '../../db/types'
import { PLATFORM_IDS, type PlatformId } from '../../domain/vocabulary'
import { reportFromSummary, type BestTimesReport, type HistorySummary } from './best-times-stats'
import { reportsEngagement } from './engagement'

export const LOOKBACK_DAYS = 180
/** Also written into the trigger of migration 0005 that keeps each target's mature figures: change both. */
export const MATURE_AFTER_HOURS = 48

const HOUR_MS = 3_600_000

export interface BestTimes {
  overall: BestTimesReport
  byPlatform: Array<{ platform: PlatformId; report: BestTimesReport }>
}

/**
 * The best times of the workspace; `visibleGroupIds` (a limited caller's groups, `Access.groupIds`)
 * reads the history and the platforms of those groups' accounts only.
 */
export async function getBestTimes(
  db: Db,
  workspaceId: string,
  now: Date,
  visibleGroupIds: readonly string[] | null = null,
): Promise<BestTimes> {
  const timezone = (await findWorkspaceTimezone(db, workspaceId)) ?? 'UTC'
  const window = {
    timezone,
    from: new Date(now.getTime() - LOOKBACK_DAYS * 24 * HOUR_MS),
    until: new Date(now.getTime() - MATURE_AFTER_HOURS * HOUR_MS),
    visibleGroupIds,
  }
  const [slotTotals, medians, accountPlatforms] = await Promise.all([
    selectSlotTotals(db, workspaceId, window),
    selectEngagementMedians(db, workspaceId, { ...window, pooled: PLATFORM_IDS.filter(reportsEngagement) }),
    selectAccountPlatforms(db, workspaceId, { visibleGroupIds }),
  ])

  const empty = (): HistorySummary => ({
    posts: 0,
    samples: 0,
    medianEngagement: Number.NaN,
    accountMedians: new Map(),
    cells: [],
  })
  const byPlatform = new Map<PlatformId, HistorySummary>()
  const summaryOf = (platform: PlatformId): HistorySummary => {
    let summary = byPlatform.get(platform)
    if (!summary) byPlatform.set(platform, (summary = empty()))
    return summary
  }
  for (const { platform } of accountPlatforms) summaryOf(platform as PlatformId)
  let pooledMedian = Number.NaN
  for (const r of medians) {
    if (r.platform === null) pooledMedian = r.pooledMedian ?? Number.NaN
    else if (r.accountId !== null) {
      if (r.median !== null) summaryOf(r.platform as PlatformId).accountMedians.set(r.accountId, r.median)
    } else {
      const summary = summaryOf(r.platform as PlatformId)
      summary.posts = r.posts
      summary.samples = r.samples
      summary.medianEngagement = r.median ?? Number.NaN
    }
  }
  for (const r of slotTotals) {
    summaryOf(r.platform as PlatformId).cells.push({
      accountId: r.accountId,
      weekday: Math.floor(r.hourOfWeek / 24),
      hour: r.hourOfWeek % 24,
      samples: r.samples,
      total: r.total,
    })
  }
  const platforms = PLATFORM_IDS.filter((p) => byPlatform.has(p))
  const reporting = platforms.filter(reportsEngagement)
  const pooled: HistorySummary = { ...empty(), medianEngagement: pooledMedian }
  for (const p of reporting) {
    const s = byPlatform.get(p)!
    pooled.posts += s.posts
    pooled.samples += s.samples
    for (const [id, m] of s.accountMedians) pooled.accountMedians.set(id, m)
    pooled.cells.push(...s.cells)
  }
  return {
    overall: reportFromSummary(timezone, pooled, platforms.length === 0 || reporting.length > 0),
    byPlatform: platforms.map((platform) => ({
      platform,
      report: reportFromSummary(timezone, byPlatform.get(platform)!, reportsEngagement(platform)),
    })),
  }
}
