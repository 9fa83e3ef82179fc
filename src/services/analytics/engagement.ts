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
  clicks: number | null
  impressions: number | null
  reach: number | null
}

/** Every figure of a post, in the registry's order (`POST_METRICS`). */
export const FIGURE_KEYS = [
  'likes',
  'comments',
  'shares',
  'views',
  'saves',
  'clicks',
  'impressions',
  'reach',
] as const satisfies ReadonlyArray<keyof MetricFigures>

/**
 * The figures of a stored snapshot as the API shows them: a figure the platform's network does not
 * report (registry `insights.postMetrics`) is null whatever was stored, never 0.
 */
export function reportedFigures(
  platform: PlatformId,
  row: Partial<Record<keyof MetricFigures, number | null>> | null,
): MetricFigures {
  const reported: readonly string[] = rulesFor(platform).insights.postMetrics
  const out = {} as MetricFigures
  for (const key of FIGURE_KEYS) out[key] = row && reported.includes(key) ? (row[key] ?? null) : null
  return out
}

/**
 * Engagement rate = engagement / impressions, or engagement / views where the network reports no
 * impressions (the post's exposure, as the network counts it). Null when the engagement or that
 * exposure is unknown, or the exposure is 0. Rounded to 4 decimals (0.0425 = 4.25 %).
 */
export function engagementRateOf(
  m: MetricFigures,
  engagement: number | null = engagementOf(m),
): { rate: number | null; basis: 'impressions' | 'views' | null } {
  const basis = m.impressions !== null ? 'impressions' : m.views !== null ? 'views' : null
  const exposure = basis ? m[basis] : null
  if (engagement === null || exposure === null || exposure === 0) return { rate: null, basis }
  return { rate: Math.round((engagement / exposure) * 10_000) / 10_000, basis }
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
