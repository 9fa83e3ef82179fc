import { z } from '@hono/zod-openapi'
import { PLATFORM_IDS } from '../domain/vocabulary'

const figure = (what: string) =>
  z
    .number()
    .int()
    .nullable()
    .openapi({
      description: `${what}; null when the network does not report it or it was not collected. Never 0 for "unknown".`,
    })
const collectedAt = z.string().nullable().openapi({
  format: 'date-time',
  description: 'When this figure was collected (ISO 8601); null when it never was.',
  example: '2026-03-10T09:00:00.000Z',
})

const MetricsSchema = z
  .object({
    likes: figure('Likes (reactions, hearts)'),
    comments: figure('Comments and replies'),
    shares: figure('Shares, reposts, boosts'),
    views: figure('Views, impressions or plays, as the network counts them; exposure, not an interaction'),
    saves: figure('Saves or bookmarks'),
  })
  .openapi('PostMetrics')

export const AnalyticsSchema = z
  .object({
    timezone: z.string().openapi({
      description: 'The workspace time zone; `series[].day` are its calendar days.',
      example: 'Europe/Berlin',
    }),
    generatedAt: z.string().openapi({ format: 'date-time', description: 'When this answer was computed.' }),
    accounts: z.array(
      z.object({
        accountId: z.string(),
        platform: z.enum(PLATFORM_IDS),
        username: z.string(),
        status: z
          .string()
          .openapi({ description: '`ACTIVE`, `EXPIRED` or `DISCONNECTED`; only ACTIVE accounts are collected.' }),
        reports: z
          .object({
            followers: z
              .boolean()
              .openapi({ description: 'Whether this network reports a follower count to this service.' }),
            postMetrics: z
              .array(z.string())
              .openapi({ description: 'The per-post metrics this network reports; the others are always null.' }),
          })
          .openapi({
            description:
              'What the network reports (the registry of `GET /v1/platforms`, `insights`), so a null can be read as "never reported" or "not collected yet".',
          }),
        followers: z.object({
          value: figure('The latest follower (or member) count'),
          collectedAt,
        }),
        series: z
          .array(
            z.object({
              day: z.string().openapi({ example: '2026-03-10' }),
              followers: figure('Followers collected that day'),
              collectedAt,
            }),
          )
          .openapi({
            description:
              'Exactly 30 entries, one per calendar day of the workspace time zone, oldest first, ending today. A day without a snapshot has `followers: null`.',
          }),
      }),
    ),
    recentPosts: z
      .array(
        z.object({
          targetId: z.string(),
          postId: z.string(),
          accountId: z.string(),
          platform: z.enum(PLATFORM_IDS),
          publishedAt: z.string().openapi({ format: 'date-time' }),
          permalink: z.string().nullable(),
          collectedAt,
          metrics: MetricsSchema,
          engagement: figure('likes + comments + shares + saves over the figures reported (views excluded)'),
        }),
      )
      .openapi({
        description:
          'Targets published in the last 30 days, newest first, at most 100, with their latest collected figures.',
      }),
  })
  .openapi('Analytics')
