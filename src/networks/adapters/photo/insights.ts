/** The photo network's insights: the account's followers, and each post's figures from one insights call. */
import type { Insights, InsightsInput } from '../../adapter'
import { NetworkFailure, credential } from '../../http'
import { metric } from '../../metrics'
import { accountGraph } from '../meta/container-publish'
import { PHOTO_HOST, PHOTO_MEDIA_METRICS } from './plan'

/** Followers, and per post likes, comments, shares, saves, views and reach (one insights call); a post the network will not report on is null. */
export async function fetchPhotoInsights(input: InsightsInput): Promise<Insights> {
  const graph = accountGraph(PHOTO_HOST, input)
  const user = await graph.get(credential(input.credentials, 'igUserId'), { fields: 'followers_count' })
  const posts: Insights['posts'] = []
  for (const post of input.posts) {
    const row: Insights['posts'][number] = {
      targetId: post.targetId,
      likes: null,
      comments: null,
      shares: null,
      views: null,
      saves: null,
      reach: null,
    }
    try {
      const body = await graph.get(`${post.platformPostId}/insights`, {
        metric: Object.keys(PHOTO_MEDIA_METRICS).join(','),
      })
      for (const entry of Array.isArray(body.data) ? body.data : []) {
        const field = PHOTO_MEDIA_METRICS[entry.name as keyof typeof PHOTO_MEDIA_METRICS]
        const value = metric(entry.total_value?.value ?? entry.values?.[0]?.value)
        if (field && value !== null) row[field] = value
      }
    } catch (e) {
      // A deleted post, an expired story: nothing to report. Token and rate problems stop the pass.
      if (!(e instanceof NetworkFailure) || e.kind !== 'rejected') throw e
    }
    posts.push(row)
  }
  return { followers: metric(user.followers_count), posts }
}
