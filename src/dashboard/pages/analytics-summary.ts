/**
 * What the analytics page draws, computed from `getAnalytics`'s answer only (no figure of its own):
 * the period's totals, engagement per day of publishing, the per-network comparison and the top
 * posts. Null stays unknown (a network that reports nothing), never 0.
 */
import type { PlatformId } from '../../domain/vocabulary'
import type { Analytics, PostAnalytics } from '../../services/analytics/read'
import { localDayOf } from './zoned-time'

export interface PeriodTotals {
  /** Published targets in the period (a post on three accounts counts three). */
  posts: number
  /** Sum of the posts' engagement; null when no post reported any. */
  engagement: number | null
  views: number | null
  /** Followers today over every account that reports them; null when none has a figure. */
  followers: number | null
  /** Followers now minus the first figure of the period, over the accounts having both. */
  followerChange: number | null
}

const add = (a: number | null, b: number | null) => (b === null ? a : (a ?? 0) + b)

/** The first and last known figure of a series. */
function ends(series: Array<{ followers: number | null }>): { first: number; last: number } | null {
  const known = series.map((p) => p.followers).filter((v): v is number => v !== null)
  return known.length ? { first: known[0]!, last: known[known.length - 1]! } : null
}

export function periodTotals(a: Analytics): PeriodTotals {
  let engagement: number | null = null
  let views: number | null = null
  for (const p of a.recentPosts) {
    engagement = add(engagement, p.engagement)
    views = add(views, p.metrics.views)
  }
  let followers: number | null = null
  let followerChange: number | null = null
  for (const account of a.accounts) {
    const e = ends(account.series)
    if (!e) continue
    followers = (followers ?? 0) + e.last
    followerChange = (followerChange ?? 0) + (e.last - e.first)
  }
  return { posts: a.recentPosts.length, engagement, views, followers, followerChange }
}

export interface DayFigure {
  day: string
  posts: number
  engagement: number | null
}

/** Per day of the period (the follower series' days), the posts published that day and their engagement. */
export function engagementByDay(a: Analytics): DayFigure[] {
  const days = a.accounts[0]?.series.map((p) => p.day) ?? []
  const byDay = new Map<string, DayFigure>(days.map((day) => [day, { day, posts: 0, engagement: null }]))
  for (const p of a.recentPosts) {
    const entry = byDay.get(localDayOf(p.publishedAt, a.timezone))
    if (!entry) continue
    entry.posts++
    entry.engagement = add(entry.engagement, p.engagement)
  }
  return [...byDay.values()]
}

export interface NetworkFigure {
  platform: PlatformId
  posts: number
  engagement: number | null
  /** Engagement per post that reported any; null when none did. */
  average: number | null
}

/** Each network's posts and engagement in the period, most engaging first. */
export function byNetwork(a: Analytics): NetworkFigure[] {
  const map = new Map<PlatformId, { posts: number; engagement: number | null; reporting: number }>()
  for (const p of a.recentPosts) {
    const e = map.get(p.platform) ?? { posts: 0, engagement: null, reporting: 0 }
    e.posts++
    e.engagement = add(e.engagement, p.engagement)
    if (p.engagement !== null) e.reporting++
    map.set(p.platform, e)
  }
  return [...map.entries()]
    .map(([platform, e]) => ({
      platform,
      posts: e.posts,
      engagement: e.engagement,
      average: e.engagement === null || e.reporting === 0 ? null : Math.round((e.engagement / e.reporting) * 10) / 10,
    }))
    .sort((x, y) => (y.engagement ?? -1) - (x.engagement ?? -1) || y.posts - x.posts)
}

/** The period's most engaging published targets (those with a figure), best first. */
export function topPosts(a: Analytics, count = 10): PostAnalytics[] {
  return a.recentPosts
    .filter((p) => p.engagement !== null)
    .sort((x, y) => y.engagement! - x.engagement! || y.publishedAt.localeCompare(x.publishedAt))
    .slice(0, count)
}
