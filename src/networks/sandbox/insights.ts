/**
 * The simulated network's analytics: deterministic figures, never random, so tests can rely on
 * them. Followers come from the account id and the day, and grow slowly; a post's figures come
 * from its id, its account's audience and the weekday and hour (UTC) it went out, so some times
 * are reliably better than others. Only what the platform's real network reports is returned
 * (registry `insights`); the rest is null, as the real adapters answer.
 */
import type { PlatformId } from '../../domain/vocabulary'
import { rulesFor } from '../../domain/rules/index'
import type { InsightsRules, PostMetric } from '../../domain/rules/schema'
import type { Insights, InsightsInput } from '../adapter'
import { hash32, unitHash } from './hash'

const DAY_MS = 86_400_000
/** Day 0 of the follower curve. */
const EPOCH_MS = Date.UTC(2025, 0, 1)
/** A post collects its figures over its first two days. */
const RAMP_MS = 2 * DAY_MS

/** Weekday factors, 0 = Sunday: mid-week is best, the weekend worst. */
const WEEKDAY_FACTOR = [0.6, 0.9, 1.2, 1.3, 1.2, 1.0, 0.7] as const

/**
 * How well a post published at `at` does: from about 0.12 at night on a Sunday to 1.8 at 09:00
 * UTC on a Wednesday, with a second peak around 18:00. Exported so analytics tests know the best times.
 */
export function sandboxEngagementFactor(at: Date): number {
  const hour = at.getUTCHours() + at.getUTCMinutes() / 60
  const peak = (centre: number, width: number) => Math.exp(-(((hour - centre) / width) ** 2))
  const daily = 0.2 + 1.2 * peak(9, 2) + peak(18, 2.5)
  return daily * (WEEKDAY_FACTOR[at.getUTCDay()] ?? 1)
}

/** Followers of a sandbox account on the UTC day of `now`: never fewer than the day before. */
export function sandboxFollowers(accountId: string, now: Date): number {
  const base = 150 + (hash32(`${accountId}:followers`) % 4850)
  const perDay = 0.5 + 4.5 * unitHash(accountId, 'growth')
  const days = Math.max(0, Math.floor((now.getTime() - EPOCH_MS) / DAY_MS))
  return base + Math.floor(days * perDay)
}

/** Figures of one post as of `now`, before the platform's registry decides which it reports. */
function postFigures(
  accountId: string,
  platformPostId: string,
  publishedAt: Date,
  now: Date,
): Record<PostMetric, number> {
  const ramp = Math.min(1, Math.max(0, (now.getTime() - publishedAt.getTime()) / RAMP_MS))
  const luck = 0.85 + 0.3 * unitHash(platformPostId, 'luck')
  const views = Math.round(
    sandboxFollowers(accountId, publishedAt) * 0.4 * sandboxEngagementFactor(publishedAt) * luck * ramp,
  )
  const likes = Math.round(views * 0.08)
  return {
    views,
    likes,
    comments: Math.round(likes * 0.12),
    shares: Math.round(likes * 0.05),
    saves: Math.round(likes * 0.07),
    clicks: Math.round(likes * 0.2),
    impressions: Math.round(views * 1.3),
    reach: Math.round(views * 0.9),
  }
}

/** What the network of `platform` reports for these posts; null where it reports nothing. */
export function sandboxInsights(platform: PlatformId | null, input: InsightsInput): Insights {
  const reported: Pick<InsightsRules, 'followers' | 'postMetrics'> = platform
    ? rulesFor(platform).insights
    : { followers: false, postMetrics: [] }
  const pick = (figures: Record<PostMetric, number>, metric: PostMetric) =>
    reported.postMetrics.includes(metric) ? figures[metric] : null
  return {
    followers: reported.followers ? sandboxFollowers(input.accountId, input.now) : null,
    posts: input.posts.map((post) => {
      const figures = postFigures(input.accountId, post.platformPostId, post.publishedAt, input.now)
      return {
        targetId: post.targetId,
        likes: pick(figures, 'likes'),
        comments: pick(figures, 'comments'),
        shares: pick(figures, 'shares'),
        views: pick(figures, 'views'),
        saves: pick(figures, 'saves'),
        clicks: pick(figures, 'clicks'),
        impressions: pick(figures, 'impressions'),
        reach: pick(figures, 'reach'),
      }
    }),
  }
}
