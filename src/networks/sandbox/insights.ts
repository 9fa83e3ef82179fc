/**
 * The simulated network's analytics: deterministic figures, never random, so tests can rely on
 * them. Followers come from the account id and the day, and grow slowly; a post's figures come
 * from its id, its account's audience and the weekday and hour (UTC) it went out, so some times
 * are reliably better than others. Only what the platform's real network reports is returned
 * (registry `insights`); the rest is null, as the real adapters answer.
 */
import type { PlatformId } from '../../domain/vocabulary'
import { rulesFor } from '../../domain/rules/index'
import type { PostMetric } from '../../domain/rules/schema'
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

/**
 * Figures of one post as of `now`, before the platform's registry decides which it reports. They
 * move from the first seconds on: the share of the post's audience reached grows with the square
 * root of its age until its second day, so a page refreshed a few seconds apart shows new figures.
 * `comments` is the real number of comments the post has on the sandbox network.
 */
export function sandboxPostFigures(
  accountId: string,
  post: { platformPostId: string; publishedAt: Date; comments: number },
  now: Date,
): Record<PostMetric, number> {
  const age = Math.max(0, now.getTime() - post.publishedAt.getTime())
  const ramp = Math.min(1, Math.sqrt(age / RAMP_MS))
  const luck = 0.85 + 0.3 * unitHash(post.platformPostId, 'luck')
  const potential =
    sandboxFollowers(accountId, post.publishedAt) * 0.4 * sandboxEngagementFactor(post.publishedAt) * luck
  const views = Math.round(potential * ramp)
  const likes = Math.round(views * 0.08)
  return {
    views,
    likes,
    comments: post.comments,
    shares: Math.round(likes * 0.05),
    saves: Math.round(likes * 0.07),
    clicks: Math.round(views * (0.01 + 0.03 * unitHash(post.platformPostId, 'clicks'))),
    impressions: Math.round(views * 1.6),
    reach: Math.round(views * 0.85),
  }
}

/** Picks what the network of `platform` reports from `figures`; null where it reports nothing. */
export function reportedFigures(platform: PlatformId | null, figures: Record<PostMetric, number>) {
  const reported = platform ? rulesFor(platform).insights.postMetrics : []
  const pick = (metric: PostMetric) => (reported.includes(metric) ? figures[metric] : null)
  return {
    likes: pick('likes'),
    comments: pick('comments'),
    shares: pick('shares'),
    views: pick('views'),
    saves: pick('saves'),
    clicks: pick('clicks'),
    impressions: pick('impressions'),
    reach: pick('reach'),
  }
}

/**
 * What the network of `platform` reports for these posts; null where it reports nothing.
 * `commentCounts`: the comments each post has (by network post id); a post absent has none.
 */
export function sandboxInsights(
  platform: PlatformId | null,
  input: InsightsInput,
  commentCounts: ReadonlyMap<string, number> = new Map(),
): Insights {
  const followers = platform ? rulesFor(platform).insights.followers : false
  return {
    followers: followers ? sandboxFollowers(input.accountId, input.now) : null,
    posts: input.posts.map((post) => {
      const comments = commentCounts.get(post.platformPostId) ?? 0
      const figures = sandboxPostFigures(input.accountId, { ...post, comments }, input.now)
      return { targetId: post.targetId, ...reportedFigures(platform, figures) }
    }),
  }
}
