/**
 * What analytics counts, in one place: the definitions the collection pass, `GET /v1/analytics`
 * and `GET /v1/best-times` share (and the OpenAPI description quotes).
 */
import type { PlatformId } from '../../domain/vocabulary'
import { rulesFor } from '../../domain/rules/index'
import type { PostMetric } from '../../domain/rules/schema'

/** Interactions: what a person did with a post. Views are exposure, not interaction, and never count. */
export const INTERACTION_METRICS = ['likes', 'comments', 'shares', 'saves'] as const satisfies readonly PostMetric[]

export interface MetricFigures {
  likes: number | null
  comments: number | null
  shares: number | null
  views: number | null
  saves: number | null
  /** Where the network reports them (registry `insights.postMetrics`); absent or null: not reported. */
  clicks?: number | null
  impressions?: number | null
  reach?: number | null
}

/**
 * Engagement of a post = likes + comments + shares + saves, over the metrics the network reported.
 * Null when it reported none of them (unknown), never 0 for "nothing reported".
 */
export function engagementOf(m: Pick<MetricFigures, (typeof INTERACTION_METRICS)[number]>): number | null {
  let total: number | null = null
  for (const key of INTERACTION_METRICS) {
    const v = m[key]
    if (v !== null) total = (total ?? 0) + v
  }
  return total
}

/** Whether the platform's network reports any per-post interaction (registry `insights.postMetrics`). */
export function reportsEngagement(platform: PlatformId): boolean {
  const metrics: readonly PostMetric[] = rulesFor(platform).insights.postMetrics
  return INTERACTION_METRICS.some((m) => metrics.includes(m))
}

/** A figure as a network gave it, kept only when it is a non-negative integer; anything else is unknown. */
export function cleanFigure(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.round(value) : null
}

/**
 * Collection schedule of a published target's metrics, by the post's age: hourly during its first
 * day, daily until 7 days, weekly until 30 days, then never again (the last figures stand).
 */
export const COLLECTION_SCHEDULE = [
  { untilAgeHours: 24, everyHours: 1 },
  { untilAgeHours: 7 * 24, everyHours: 24 },
  { untilAgeHours: 30 * 24, everyHours: 7 * 24 },
] as const

/** Collection stops for posts older than this. */
export const COLLECTION_MAX_AGE_HOURS = 30 * 24
