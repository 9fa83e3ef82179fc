import { z } from '@hono/zod-openapi'
import { PLATFORM_IDS, POST_SOURCES } from '../domain/vocabulary'

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
    clicks: figure('Clicks on the post or its link'),
    impressions: figure('Times the post was shown (one person may count several times)'),
    reach: figure('Distinct people the post was shown to'),
  })
  .openapi('PostMetrics')

export const ENGAGEMENT_RATE_RULE =
  '`engagementRate` = `engagement` / `impressions`, or `engagement` / `views` where the network reports no impressions; a fraction rounded to 4 decimals (0.0425 = 4.25 %). Null when the engagement or that denominator is unknown, or the denominator is 0.'

const engagement = figure('likes + comments + shares + saves over the figures reported (views excluded)')
const engagementRate = z.number().nullable().openapi({ description: ENGAGEMENT_RATE_RULE, example: 0.0425 })

const TotalsFields = {
  posts: z.number().int().openapi({ description: 'Targets published in the period.' }),
  collected: z.number().int().openapi({ description: 'Of them, those with collected figures.' }),
  metrics: MetricsSchema.openapi({
    description: "Each figure summed over the targets' latest snapshots; null when no target has it.",
  }),
  engagement,
  engagementRate,
}
const TotalsSchema = z.object(TotalsFields).openapi('AnalyticsTotals')

export const AnalyticsSchema = z
  .object({
    timezone: z.string().openapi({
      description: 'The workspace time zone; `series[].day` are its calendar days.',
      example: 'Europe/Berlin',
    }),
    generatedAt: z.string().openapi({ format: 'date-time', description: 'When this answer was computed.' }),
    period: z
      .object({
        from: z.string().openapi({ example: '2026-02-09' }),
        to: z.string().openapi({ example: '2026-03-10' }),
        accountId: z.string().nullable(),
        platform: z.enum(PLATFORM_IDS).nullable(),
        groupId: z.string().nullable(),
        labelId: z.string().nullable(),
      })
      .openapi({
        description: 'The period and filters this answer covers (calendar days of `timezone`, both included).',
      }),
    refreshing: z.boolean().openapi({
      description:
        'True while a refresh asked for with `POST /v1/analytics/refresh` for one of these accounts has not completed; read again later for fresher figures.',
    }),
    totals: TotalsSchema.openapi({ description: 'The figures of every target published in the period, summed.' }),
    byPlatform: z
      .array(
        z.object({
          platform: z.enum(PLATFORM_IDS),
          accounts: z.number().int().openapi({ description: 'Accounts of this network with a target in the period.' }),
          ...TotalsFields,
        }),
      )
      .openapi({ description: 'The totals per network, for the networks with a target published in the period.' }),
    byLabel: z
      .array(
        z.object({
          labelId: z.string(),
          name: z.string(),
          color: z.string(),
          ...TotalsFields,
        }),
      )
      .openapi({
        description:
          "The totals per label of the targets' posts, by label name, for the labels with a target published in the period. A target whose post has two labels counts in both; one without a label in none.",
      }),
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
              'One entry per calendar day of the period in the workspace time zone (30 by default, ending today), oldest first. A day without a snapshot has `followers: null`.',
          }),
        refreshing: z.boolean().openapi({
          description: 'A refresh of this account was asked for (`POST /v1/analytics/refresh`) and has not completed.',
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
          engagement,
          engagementRate,
        }),
      )
      .openapi({
        description:
          'Targets published in the period (by default the last 30 days), newest first, at most 100, with their latest collected figures. `Accept: text/csv` gives every one of them.',
      }),
  })
  .openapi('Analytics')

const day = (what: string) =>
  z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, 'a calendar day, YYYY-MM-DD')
    .optional()
    .openapi({ description: what, example: '2026-03-01' })

export const AnalyticsQuerySchema = z.object({
  from: day(
    'First day of the period (workspace time zone), included. Default: 29 days before `to`. At most 366 days before `to`.',
  ),
  to: day('Last day of the period, included. Default: today in the workspace time zone.'),
  accountId: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .openapi({ description: "Only this account (404 when it is not the workspace's)." }),
  platform: z.enum(PLATFORM_IDS).optional().openapi({ description: 'Only the accounts of this network.' }),
  groupId: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .openapi({ description: 'Only the accounts of this account group (404 when there is no such group).' }),
  labelId: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .openapi({ description: 'Only the targets of posts with this label (404 when there is no such label).' }),
})

const nullableMetric = MetricsSchema

export const PostAnalyticsSchema = z
  .object({
    postId: z.string(),
    source: z.enum(POST_SOURCES).openapi({
      description: '`external`: a post published outside this service and imported from the network (read-only).',
    }),
    generatedAt: z.string().openapi({ format: 'date-time' }),
    targets: z.array(
      z.object({
        targetId: z.string(),
        accountId: z.string(),
        platform: z.enum(PLATFORM_IDS),
        status: z.string().openapi({ description: 'The target status; only PUBLISHED targets have figures.' }),
        publishedAt: z.string().nullable().openapi({ format: 'date-time' }),
        permalink: z.string().nullable(),
        reported: z.array(z.string()).openapi({
          description:
            'The metrics this network reports (registry `insights.postMetrics`); every other figure is always null.',
        }),
        collectedAt,
        metrics: nullableMetric.openapi({
          description: 'The latest collected figures; all null before the first collection.',
        }),
        engagement,
        engagementRate,
        engagementRateBasis: z.enum(['impressions', 'views']).nullable().openapi({
          description: 'The denominator `engagementRate` used; null when neither is known.',
        }),
        nextCollectionAt: z.string().nullable().openapi({
          format: 'date-time',
          description:
            'When the collection pass reads this target next on its schedule; null: never again (30 days old) or not published.',
        }),
        timeline: z
          .array(
            z.object({ collectedAt: z.string().openapi({ format: 'date-time' }), metrics: MetricsSchema, engagement }),
          )
          .openapi({ description: 'Every snapshot collected (the newest 200 at most), oldest first.' }),
      }),
    ),
  })
  .openapi('PostAnalytics')

export const RefreshAnalyticsBody = z
  .object({
    accountId: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .openapi({ description: "Only this account (404 when it is not the workspace's). Default: every account." }),
  })
  .openapi('RefreshAnalyticsRequest')

export const RefreshAnalyticsSchema = z
  .object({
    requestedAt: z.string().openapi({ format: 'date-time' }),
    accounts: z
      .array(
        z.object({
          accountId: z.string(),
          platform: z.enum(PLATFORM_IDS),
          streams: z.array(z.enum(['metrics', 'posts', 'comments'])).openapi({
            description:
              '`metrics`: followers and the figures of every target published in the last 90 days, read in the next collection pass (within a minute); `posts`: the posts published on the network (imported as external posts); `comments`: the comments of its posts (the inbox).',
          }),
        }),
      )
      .openapi({ description: 'The accounts that will be read again, and what of them.' }),
    skipped: z.array(z.object({ accountId: z.string(), platform: z.enum(PLATFORM_IDS), reason: z.string() })).openapi({
      description: 'The accounts that will not be read, each with why (not connected, or its network reports nothing).',
    }),
  })
  .openapi('AnalyticsRefresh')
