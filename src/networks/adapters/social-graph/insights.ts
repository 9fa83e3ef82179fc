/** The page network's insights: the Page's followers, and reactions, comments, shares and views per post. */
import type { InsightsInput } from '../../adapter'
import { NetworkFailure, credential } from '../../http'
import { metric } from '../../metrics'
import { graphClient, type GraphCall } from './api'

/** Followers, then reactions/comments/shares per post; views from the media-view metric or null. */
export async function insights(input: InsightsInput) {
  const call = graphClient(input)
  const pageId = credential(input.credentials, 'pageId')
  const page = await call('GET', pageId, { query: { fields: 'followers_count' } })
  const posts = []
  for (const post of input.posts) {
    let counts: any
    try {
      counts = await call('GET', post.platformPostId, {
        query: { fields: 'reactions.summary(total_count).limit(0),comments.summary(total_count).limit(0),shares' },
      })
    } catch (err) {
      if (err instanceof NetworkFailure && err.kind === 'rejected') {
        posts.push({ targetId: post.targetId, likes: null, comments: null, shares: null, views: null, saves: null })
        continue
      }
      throw err
    }
    posts.push({
      targetId: post.targetId,
      likes: metric(counts.reactions?.summary?.total_count),
      comments: metric(counts.comments?.summary?.total_count),
      // The network leaves `shares` out of a post nobody shared.
      shares: metric(counts.shares?.count ?? 0),
      views: await views(call, post.platformPostId),
      saves: null,
    })
  }
  return { followers: metric(page.followers_count), posts }
}

/**
 * `post_total_media_view_unique`; null when the network has no figure for this post (too new, a
 * video, no permission).
 */
async function views(call: GraphCall, postId: string): Promise<number | null> {
  try {
    const body = await call('GET', `${postId}/insights`, { query: { metric: 'post_total_media_view_unique' } })
    return metric(body.data?.[0]?.values?.[0]?.value)
  } catch (err) {
    if (err instanceof NetworkFailure && err.kind === 'rejected') return null
    throw err
  }
}
