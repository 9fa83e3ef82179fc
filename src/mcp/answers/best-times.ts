/**
 * What the `best_times` tool answers: the reports of `GET /v1/best-times` without what is empty.
 * A report without enough data is its reason and counts, and the answer then says in one sentence
 * what is missing and how much is needed (not seven rows of 24 nulls per platform); the 7×24 `grid`
 * of scores comes with `detail: true` only (the top `slots` say the same for choosing a time).
 */
import { z } from '@hono/zod-openapi'
import { PLATFORM_IDS, type PlatformId } from '../../domain/vocabulary'
import { LOOKBACK_DAYS, MATURE_AFTER_HOURS, type BestTimes } from '../../services/analytics/best-times'
import {
  type BestTimesReason,
  type BestTimesReport,
  LOW_ENGAGEMENT_MEDIAN,
  MIN_OBSERVATIONS,
} from '../../services/analytics/best-times-stats'
import { reportsEngagement } from '../../services/analytics/engagement'

const REASONS = ['ok', 'few_posts', 'few_samples', 'low_engagement', 'not_collected'] as const

const Slot = z.object({
  weekday: z.number().int(),
  minutes: z.number().int(),
  score: z.number(),
  samples: z.number().int(),
})

const ReportFields = {
  insufficient: z.boolean(),
  reason: z.enum(REASONS),
  observations: z.number().int(),
  slots: z.array(Slot).optional(),
  grid: z.array(z.array(z.number().nullable())).optional(),
}

export const BestTimesAnswerSchema = z.object({
  ...ReportFields,
  minObservations: z.number().int(),
  missing: z.string().optional(),
  timezone: z.string().optional(),
  byPlatform: z.array(z.object({ platform: z.enum(PLATFORM_IDS), ...ReportFields })).optional(),
})
export type BestTimesAnswer = z.infer<typeof BestTimesAnswerSchema>

export const BestTimesInputSchema = z.object({
  detail: z.boolean().optional().openapi({
    description: "true: each report also carries `grid[weekday][hour]`, every hour's score (null: no post then).",
  }),
})

function brief(report: BestTimesReport, detail: boolean) {
  const { insufficient, reason, observations } = report
  if (insufficient) return { insufficient, reason, observations }
  return { insufficient, reason, observations, slots: report.slots, ...(detail ? { grid: report.grid } : {}) }
}

const WINDOW = `published ${MATURE_AFTER_HOURS} h to ${LOOKBACK_DAYS} days ago`

/** One sentence: what the overall report lacks and what to do about it. */
function missingSentence(reason: BestTimesReason, observations: number, silent: PlatformId[]): string {
  const has = `A report needs ${MIN_OBSERVATIONS} posts ${WINDOW} with collected engagement; there are ${observations}.`
  const sentence = {
    ok: '',
    few_posts: `${has} Publish more, then ask again.`,
    few_samples: `${has} Enough were published: their figures are still being collected. Ask again in a day.`,
    not_collected: 'No engagement figures have been collected for the posts there are.',
    low_engagement: `The typical post earns fewer than ${LOW_ENGAGEMENT_MEDIAN} interactions: too few to tell hours apart.`,
  }[reason]
  const none = silent.length ? ` ${silent.join(', ')} report no engagement: posts there never count.` : ''
  return sentence + none
}

/**
 * The answer for the reports: the overall report's fields at the top; `byPlatform` only where a
 * platform has a report of its own (then every platform is listed, those without one by reason).
 */
export function bestTimesAnswer(times: BestTimes, detail: boolean): BestTimesAnswer {
  const { overall, byPlatform } = times
  const anyReport = !overall.insufficient || byPlatform.some((p) => !p.report.insufficient)
  const silent = byPlatform.map((p) => p.platform).filter((p) => !reportsEngagement(p))
  return {
    ...brief(overall, detail),
    minObservations: overall.minObservations,
    ...(overall.insufficient ? { missing: missingSentence(overall.reason, overall.observations, silent) } : {}),
    ...(anyReport
      ? {
          timezone: overall.timezone,
          byPlatform: byPlatform.map((p) => ({ platform: p.platform, ...brief(p.report, detail) })),
        }
      : {}),
  }
}
