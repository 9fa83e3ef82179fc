import { z } from '@hono/zod-openapi'
import { PLATFORM_IDS } from '../domain/vocabulary'
import {
  LOW_ENGAGEMENT_MEDIAN,
  MIN_OBSERVATIONS,
  PRIOR_WEIGHT,
  TOP_SLOTS,
} from '../services/analytics/best-times-stats'

export const BestTimesReportSchema = z
  .object({
    timezone: z.string().openapi({
      description: 'The workspace time zone: weekdays and times of day are its local wall-clock time.',
      example: 'Europe/Berlin',
    }),
    observations: z.number().int().openapi({
      description: 'Posts of the history whose engagement was collected (the samples the report is built on).',
    }),
    minObservations: z
      .number()
      .int()
      .openapi({
        description: `Observations needed before a report is given (${MIN_OBSERVATIONS}).`,
        example: MIN_OBSERVATIONS,
      }),
    insufficient: z.boolean().openapi({
      description: 'True: `slots` is empty and every `grid` cell null. This means unknown, not "no good time".',
    }),
    reason: z.enum(['ok', 'few_posts', 'few_samples', 'low_engagement', 'not_collected']).openapi({
      description: [
        '`not_collected`: the network reports no per-post interactions (or none have been collected for the posts there are): publishing more will not help.',
        `\`few_posts\`: fewer than \`minObservations\` published posts in the history: publish more.`,
        '`few_samples`: enough posts, but fewer than `minObservations` with collected engagement (collection still catching up, or figures missing): wait or publish more.',
        `\`low_engagement\`: the median post earns fewer than ${LOW_ENGAGEMENT_MEDIAN} interactions; at such counts chance alone separates hours, so none is recommended.`,
        '`ok`: a report is given.',
      ].join(' '),
    }),
    slots: z
      .array(
        z.object({
          weekday: z
            .number()
            .int()
            .openapi({ description: '0 = Sunday ... 6 = Saturday, in the workspace time zone.' }),
          minutes: z.number().int().openapi({
            description:
              'Start of the slot in minutes after local midnight (a multiple of 60: slots are one hour long). 1080 = 18:00-18:59.',
            example: 1080,
          }),
          score: z.number().openapi({
            description:
              "Shrunk mean score of the slot's posts: a multiple of the typical post of the same account (1 = typical).",
            example: 1.8,
          }),
          samples: z.number().int().openapi({ description: 'Posts with collected engagement published in this slot.' }),
        }),
      )
      .openapi({ description: `The ${TOP_SLOTS} best slots with at least one sample, best first.` }),
    grid: z.array(z.array(z.number().nullable())).openapi({
      description:
        "`grid[weekday][hour]`: 7 rows (0 = Sunday), each of 24 hourly cells (0 = 00:00-00:59 local time) holding the slot's score, or null where no post with collected engagement was published (unknown).",
    }),
  })
  .openapi('BestTimesReport')

export const BestTimesSchema = z
  .object({
    overall: BestTimesReportSchema.openapi({
      description: 'All platforms whose network reports per-post interactions, pooled.',
    }),
    byPlatform: z
      .array(z.object({ platform: z.enum(PLATFORM_IDS), report: BestTimesReportSchema }))
      .openapi({ description: 'One entry per platform the workspace has an account on or published to.' }),
  })
  .openapi('BestTimes')

export const BEST_TIMES_DESCRIPTION = [
  "When the workspace's posts do best, from its own publishing history. A member or token limited to account groups gets the history of its groups' accounts only (and their platforms in `byPlatform`).",
  '',
  "**History.** Published targets from the last 180 days, except the last 48 hours (young posts are still gathering interactions). A post's engagement is its latest figures collected at least 48 hours after it went out: likes + comments + shares + saves (views are exposure, not interaction, and do not count).",
  '',
  "**Score.** Each post is scored against its own account: engagement / typical, where typical is the median engagement of that account's posts (at least 1). A score of 1.8 means roughly 80% more than that account's typical post, so accounts of any size are pooled fairly.",
  '',
  `**Slots.** Posts are grouped by the weekday and hour of their publication in the workspace time zone (local wall-clock time, so a post at 18:00 in winter and one at 18:00 in summer share a slot across daylight-saving changes). A slot's score is its posts' mean score shrunk toward 1 by a prior worth ${PRIOR_WEIGHT} typical posts: (sum of scores + ${PRIOR_WEIGHT}) / (samples + ${PRIOR_WEIGHT}). A slot with two lucky posts barely moves; one with twenty steady posts is close to their mean. Read \`samples\` as the confidence: a score resting on few samples says little.`,
].join('\n')
