/**
 * `GET /v1/posts/{id}/analytics`: per target of one post its latest figures (null where its
 * network does not report them, never 0), engagement and engagement rate, when they were collected
 * and are collected next, and the timeline of its snapshots.
 */
import { selectTargetTimelines } from '../../db/queries/analytics'
import type { DbOrTx } from '../../db/types'
import type { PostMetric } from '../../domain/rules/schema'
import type { PlatformId } from '../../domain/vocabulary'
import { rulesFor } from '../../domain/rules/index'
import { getPost } from '../posts/read'
import { engagementOf, engagementRateOf, type MetricFigures, reportedFigures } from './engagement'
import { getPostMetrics } from './post-metrics'

/** The newest snapshots a timeline holds per target (the collection schedule takes about 35 in 30 days). */
export const TIMELINE_MAX = 200

export interface TimelinePoint {
  collectedAt: string
  metrics: MetricFigures
  engagement: number | null
}

export interface TargetAnalytics {
  targetId: string
  accountId: string
  platform: PlatformId
  status: string
  publishedAt: string | null
  permalink: string | null
  reported: PostMetric[]
  collectedAt: string | null
  metrics: MetricFigures
  engagement: number | null
  engagementRate: number | null
  engagementRateBasis: 'impressions' | 'views' | null
  nextCollectionAt: string | null
  timeline: TimelinePoint[]
}

export interface PostAnalyticsRecord {
  postId: string
  source: 'service' | 'external'
  generatedAt: string
  targets: TargetAnalytics[]
}

/** The post's analytics; another workspace's post (or none) is 404, as `getPost` answers. */
export async function getPostAnalytics(
  db: DbOrTx,
  workspaceId: string,
  postId: string,
  now: Date,
): Promise<PostAnalyticsRecord> {
  const post = await getPost(db, workspaceId, postId)
  const latest = await getPostMetrics(db, post, now)
  const ids = [...latest.keys()]
  const points = ids.length ? await selectTargetTimelines(db, ids, TIMELINE_MAX) : []
  const timelines = new Map<string, TimelinePoint[]>()
  const platformOf = new Map(post.targets.map((t) => [t.id, t.platform]))
  for (const p of points) {
    const metrics = reportedFigures(platformOf.get(p.targetId)!, p)
    const list = timelines.get(p.targetId) ?? []
    list.push({ collectedAt: new Date(p.collectedAt).toISOString(), metrics, engagement: engagementOf(metrics) })
    timelines.set(p.targetId, list)
  }
  return {
    postId: post.id,
    source: (post as { source?: 'service' | 'external' }).source ?? 'service',
    generatedAt: now.toISOString(),
    targets: post.targets.map((t) => {
      const m = latest.get(t.id)
      const metrics = m?.latest?.figures ?? reportedFigures(t.platform, null)
      const engagement = m?.latest?.engagement ?? null
      const rate = engagementRateOf(metrics, engagement)
      return {
        targetId: t.id,
        accountId: t.accountId,
        platform: t.platform,
        status: t.status,
        publishedAt: t.publishedAt,
        permalink: t.permalink,
        reported: m?.reported ?? [...rulesFor(t.platform).insights.postMetrics],
        collectedAt: m?.latest?.collectedAt ?? null,
        metrics,
        engagement,
        engagementRate: rate.rate,
        engagementRateBasis: m?.latest ? rate.basis : null,
        nextCollectionAt: m?.nextCollectionAt ?? null,
        timeline: timelines.get(t.id) ?? [],
      }
    }),
  }
}
