/**
 * What the `get_analytics` tool answers: by default a summary of `GET /v1/analytics` (per account
 * its latest follower count, the change over the 30 days and the totals of the posts published in
 * them; the best of those posts), a few kilobytes however long the history. `detail` adds the rest
 * as the REST answer gives it: `followers` each account's daily `series`, `posts` its `recentPosts`
 * (the newest 100), `all` both; nothing of the REST answer is out of reach.
 */
import { z } from '@hono/zod-openapi'
import { PLATFORM_IDS } from '../../domain/vocabulary'
import {
  type AccountAnalytics,
  type Analytics,
  type PostAnalytics,
  RECENT_POSTS_MAX,
} from '../../services/analytics/read'

export const ANALYTICS_DETAILS = ['followers', 'posts', 'all'] as const
export type AnalyticsDetail = (typeof ANALYTICS_DETAILS)[number]
export const TOP_POSTS = 5
/** The newest posts of the 30 days the summary totals (a busy workspace publishes a few hundred). */
export const SUMMARY_MAX_POSTS = 1_000

const count = z.number().int().nullable()
const at = z.string().nullable()

const metrics = z.object({
  likes: count,
  comments: count,
  shares: count,
  views: count,
  saves: count,
  clicks: count,
  impressions: count,
  reach: count,
})
const rate = z.number().nullable()

const PostFigures = z
  .object({
    targetId: z.string(),
    postId: z.string(),
    accountId: z.string(),
    platform: z.enum(PLATFORM_IDS),
    publishedAt: z.string(),
    permalink: z.string().nullable(),
    collectedAt: at,
    metrics,
    engagement: count,
    engagementRate: rate,
  })
  .meta({ id: 'PostFigures' })

const TopPost = z.object({
  postId: z.string(),
  accountId: z.string(),
  publishedAt: z.string(),
  permalink: z.string().nullable(),
  metrics,
  engagement: z.number().int(),
})

export const AnalyticsAnswerSchema = z.object({
  timezone: z.string(),
  generatedAt: z.string(),
  accounts: z.array(
    z.object({
      accountId: z.string(),
      platform: z.enum(PLATFORM_IDS),
      username: z.string(),
      status: z.string(),
      reports: z.object({ followers: z.boolean(), postMetrics: z.array(z.string()) }),
      followers: z.object({ value: count, collectedAt: at }),
      followersChange: count,
      posts: z.object({ count: z.number().int(), engagement: count, views: count }),
      series: z.array(z.object({ day: z.string(), followers: count, collectedAt: at })).optional(),
      refreshing: z.boolean(),
    }),
  ),
  refreshing: z.boolean(),
  postCount: z.number().int(),
  topPosts: z.array(TopPost),
  recentPosts: z.array(PostFigures).optional(),
})
export type AnalyticsAnswer = z.infer<typeof AnalyticsAnswerSchema>

export const AnalyticsInputSchema = z.object({
  detail: z.enum(ANALYTICS_DETAILS).optional().openapi({
    description:
      "`followers`: adds each account's `series` (30 daily counts); `posts`: adds `recentPosts` (the newest 100 with their figures); `all`: both.",
  }),
  groupId: z.string().min(1).max(64).optional().openapi({ description: 'Only this group (list_groups).' }),
  labelId: z.string().min(1).max(64).optional().openapi({ description: 'Only posts with this label (list_labels).' }),
})

/** A sum over the figures that are known; null when none is. */
function sumKnown(values: Array<number | null>): number | null {
  return values.reduce<number | null>((sum, v) => (v === null ? sum : (sum ?? 0) + v), null)
}

/** Latest count minus the earliest of the series; null without two counts. */
function followersChange(account: AccountAnalytics): number | null {
  const known = account.series.filter((d) => d.followers !== null)
  const first = known[0]?.followers
  const last = account.followers.value
  return known.length > 1 && first != null && last !== null ? last - first : null
}

function accountSummary(account: AccountAnalytics, posts: PostAnalytics[], withSeries: boolean) {
  const { series, ...rest } = account
  const own = posts.filter((p) => p.accountId === account.accountId)
  return {
    ...rest,
    followersChange: followersChange(account),
    posts: {
      count: own.length,
      engagement: sumKnown(own.map((p) => p.engagement)),
      views: sumKnown(own.map((p) => p.metrics.views)),
    },
    ...(withSeries ? { series } : {}),
  }
}

/** The summary of `analytics` (whose `recentPosts` are every post of the period), with the parts `detail` asks for. */
export function analyticsAnswer(analytics: Analytics, detail: AnalyticsDetail | undefined): AnalyticsAnswer {
  const posts = analytics.recentPosts
  const top = posts
    .filter((p): p is PostAnalytics & { engagement: number } => p.engagement !== null)
    .sort((a, b) => b.engagement - a.engagement || b.publishedAt.localeCompare(a.publishedAt))
    .slice(0, TOP_POSTS)
    .map(({ postId, accountId, publishedAt, permalink, metrics, engagement }) => ({
      postId,
      accountId,
      publishedAt,
      permalink,
      metrics,
      engagement,
    }))
  const withSeries = detail === 'followers' || detail === 'all'
  return {
    timezone: analytics.timezone,
    generatedAt: analytics.generatedAt,
    accounts: analytics.accounts.map((a) => accountSummary(a, posts, withSeries)),
    refreshing: analytics.refreshing,
    postCount: posts.length,
    topPosts: top,
    ...(detail === 'posts' || detail === 'all' ? { recentPosts: posts.slice(0, RECENT_POSTS_MAX) } : {}),
  }
}
