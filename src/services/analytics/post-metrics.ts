/**
 * A post's figures per target, as the post page shows them: the latest collected snapshot (null
 * when none yet) and when the collection pass reads it next, from `COLLECTION_SCHEDULE`.
 */
import { selectLatestTargetSnapshots } from '../../db/queries/analytics'
import type { DbOrTx } from '../../db/types'
import type { PostMetric } from '../../domain/rules/schema'
import { rulesFor } from '../../domain/rules/index'
import type { PostRecord } from '../posts/record'
import {
  COLLECTION_MAX_AGE_HOURS,
  COLLECTION_SCHEDULE,
  engagementOf,
  engagementRateOf,
  type MetricFigures,
  reportedFigures,
} from './engagement'

const HOUR_MS = 3_600_000

export interface TargetMetrics {
  targetId: string
  /** The metrics this target's network reports (registry `insights.postMetrics`); empty: none. */
  reported: PostMetric[]
  /** The latest snapshot, or null when nothing was collected yet. */
  latest: {
    collectedAt: string
    figures: MetricFigures
    engagement: number | null
    engagementRate: number | null
  } | null
  /** When the next collection is due (null: never again, or the target is not published). */
  nextCollectionAt: string | null
}

/**
 * When the collection pass next reads a target published at `publishedAt`: at once when nothing was
 * collected yet, else after the interval of the post's age; null past `COLLECTION_MAX_AGE_HOURS`.
 */
export function nextCollectionAt(publishedAt: Date, lastCollectedAt: Date | null, now: Date): Date | null {
  const ageHours = (now.getTime() - publishedAt.getTime()) / HOUR_MS
  if (ageHours >= COLLECTION_MAX_AGE_HOURS) return null
  if (lastCollectedAt === null) return now
  const step = COLLECTION_SCHEDULE.find((s) => ageHours < s.untilAgeHours) ?? COLLECTION_SCHEDULE[0]
  const next = new Date(lastCollectedAt.getTime() + step.everyHours * HOUR_MS)
  const end = new Date(publishedAt.getTime() + COLLECTION_MAX_AGE_HOURS * HOUR_MS)
  return next > end ? null : next
}

/** Each target's figures (the post was read through `getPost`, so it is the workspace's). */
export async function getPostMetrics(db: DbOrTx, post: PostRecord, now: Date): Promise<Map<string, TargetMetrics>> {
  const published = post.targets.filter((t) => t.status === 'PUBLISHED')
  const rows = published.length
    ? await selectLatestTargetSnapshots(
        db,
        published.map((t) => t.id),
      )
    : []
  const byTarget = new Map(rows.map((r) => [r.targetId, r]))
  const result = new Map<string, TargetMetrics>()
  for (const t of published) {
    const row = byTarget.get(t.id)
    const figures: MetricFigures | null = row ? reportedFigures(t.platform, row) : null
    const reported = [...rulesFor(t.platform).insights.postMetrics]
    const next =
      t.publishedAt && reported.length > 0
        ? nextCollectionAt(new Date(t.publishedAt), row?.collectedAt ?? null, now)
        : null
    result.set(t.id, {
      targetId: t.id,
      reported,
      latest:
        row && figures
          ? {
              collectedAt: row.collectedAt.toISOString(),
              figures,
              engagement: engagementOf(figures),
              engagementRate: engagementRateOf(figures).rate,
            }
          : null,
      nextCollectionAt: next?.toISOString() ?? null,
    })
  }
  return result
}
