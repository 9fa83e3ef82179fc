/**
 * `GET /v1/best-times`: the workspace's publishing history read from the database, handed to the
 * statistics of best-times-stats.ts, overall and per platform.
 *
 * History: the workspace's PUBLISHED targets published between `LOOKBACK_DAYS` days and
 * `MATURE_AFTER_HOURS` hours ago (younger posts are still gathering interactions). A post's
 * figures are its latest metric snapshot taken at least `MATURE_AFTER_HOURS` after publication.
 * `overall` pools the platforms whose network reports per-post interactions.
 */
import { selectAccountPlatforms, selectPublishingHistory } from '../../db/queries/analytics'
import { findWorkspaceTimezone } from '../../db/queries/workspaces'
import type { Db } from '../../db/types'
import { PLATFORM_IDS, type PlatformId } from '../../domain/vocabulary'
import { buildReport, type BestTimesReport, type Observation } from './best-times-stats'
import { engagementOf, reportsEngagement } from './engagement'

export const LOOKBACK_DAYS = 180
export const MATURE_AFTER_HOURS = 48

const HOUR_MS = 3_600_000

export interface BestTimes {
  overall: BestTimesReport
  byPlatform: Array<{ platform: PlatformId; report: BestTimesReport }>
}

export async function getBestTimes(db: Db, workspaceId: string, now: Date): Promise<BestTimes> {
  const timezone = (await findWorkspaceTimezone(db, workspaceId)) ?? 'UTC'
  const rows = await selectPublishingHistory(db, workspaceId, {
    timezone,
    from: new Date(now.getTime() - LOOKBACK_DAYS * 24 * HOUR_MS),
    until: new Date(now.getTime() - MATURE_AFTER_HOURS * HOUR_MS),
    matureAfterHours: MATURE_AFTER_HOURS,
  })
  const accountPlatforms = await selectAccountPlatforms(db, workspaceId)

  const byPlatform = new Map<PlatformId, Observation[]>()
  for (const { platform } of accountPlatforms) byPlatform.set(platform as PlatformId, [])
  for (const r of rows) {
    const platform = r.platform
    const observation: Observation = {
      accountId: r.accountId,
      weekday: Number(r.weekday),
      hour: Number(r.hour),
      engagement: engagementOf(r),
    }
    const list = byPlatform.get(platform)
    if (list) list.push(observation)
    else byPlatform.set(platform, [observation])
  }
  const platforms = PLATFORM_IDS.filter((p) => byPlatform.has(p))
  const reporting = platforms.filter(reportsEngagement)
  return {
    overall: buildReport(
      timezone,
      reporting.flatMap((p) => byPlatform.get(p)!),
      platforms.length === 0 || reporting.length > 0,
    ),
    byPlatform: platforms.map((platform) => ({
      platform,
      report: buildReport(timezone, byPlatform.get(platform)!, reportsEngagement(platform)),
    })),
  }
}
