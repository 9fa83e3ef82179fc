import type { PlatformId } from '../../src/domain/vocabulary'
/** Built histories for the analytics and best-times tests: published targets and metric snapshots written straight to the database. */
import { posts, targetMetricSnapshots, targets } from '../../src/db/schema'
import { newId } from '../../src/lib/ids'
import type { MetricFigures } from '../../src/services/analytics/engagement'
import type { TestApp } from './test-app'

export interface HistoryPost {
  account: { id: string; platform: PlatformId }
  publishedAt: Date | string
  /** The post's caption ('history' unless given). */
  caption?: string
  /** `external`: imported from the network (default: written through the service). */
  source?: 'service' | 'external'
  /** Snapshots of this post's figures; figures not given are null (not reported). */
  snapshots?: Array<{ at: Date | string; figures: Partial<MetricFigures> }>
}

const HOUR = 3_600_000

/** Inserts the posts (one target each) and their snapshots in a few statements; returns the target ids in order. */
export async function writeHistory(t: TestApp, history: HistoryPost[]): Promise<string[]> {
  const ids = history.map(() => ({ post: newId('post'), target: newId('target') }))
  for (let from = 0; from < history.length; from += 500) {
    const chunk = history.slice(from, from + 500)
    const chunkIds = ids.slice(from, from + 500)
    await t.deps.db.insert(posts).values(
      chunk.map((h, i) => ({
        id: chunkIds[i]!.post,
        workspaceId: t.workspaceId,
        status: 'PUBLISHED' as const,
        type: 'IMAGE' as const,
        caption: h.caption ?? 'history',
        publishedAt: new Date(h.publishedAt),
        ...(h.source ? { source: h.source } : {}),
      })),
    )
    await t.deps.db.insert(targets).values(
      chunk.map((h, i) => ({
        id: chunkIds[i]!.target,
        postId: chunkIds[i]!.post,
        workspaceId: t.workspaceId,
        accountId: h.account.id,
        platform: h.account.platform,
        status: 'PUBLISHED' as const,
        platformPostId: `net_${chunkIds[i]!.target}`,
        publishedAt: new Date(h.publishedAt),
      })),
    )
    const snaps = chunk.flatMap((h, i) =>
      (h.snapshots ?? []).map((s, j) => ({
        id: `ms_test_${chunkIds[i]!.target}_${j}`,
        targetId: chunkIds[i]!.target,
        collectedAt: new Date(s.at),
        likes: s.figures.likes ?? null,
        comments: s.figures.comments ?? null,
        shares: s.figures.shares ?? null,
        views: s.figures.views ?? null,
        saves: s.figures.saves ?? null,
        clicks: s.figures.clicks ?? null,
        impressions: s.figures.impressions ?? null,
        reach: s.figures.reach ?? null,
      })),
    )
    if (snaps.length) await t.deps.db.insert(targetMetricSnapshots).values(snaps)
  }
  return ids.map((i) => i.target)
}

/** A post published at `at` whose figures were collected 3 days later: `engagement` split into likes and comments. */
export function scoredPost(account: HistoryPost['account'], at: Date | string, engagement: number): HistoryPost {
  const likes = Math.round(engagement * 0.8)
  return {
    account,
    publishedAt: at,
    snapshots: [
      {
        at: new Date(new Date(at).getTime() + 72 * HOUR),
        figures: { likes, comments: engagement - likes, views: engagement * 20 },
      },
    ],
  }
}

/** `count` weekly dates going back from `first` (an ISO instant), one week apart. */
export function weekly(first: string, count: number): Date[] {
  return Array.from({ length: count }, (_, i) => new Date(new Date(first).getTime() - i * 7 * 24 * HOUR))
}
