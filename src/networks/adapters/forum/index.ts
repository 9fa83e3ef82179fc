/**
 * The forum network (Reddit, https://www.reddit.com/dev/api): a submission to the subreddit chosen
 * for the target: a self post (the caption as Markdown), a link, an image, a video with its poster,
 * or a gallery. Subreddits are listed through the account; metrics come from `/api/info`; a
 * submission is removed with `/api/del`. The flow of one submission is in ./submit.ts, media in
 * ./media.ts, the API's rules (User-Agent, rate limit, errors, token renewal) in ./api.ts.
 */
import type { Destination, NetworkAdapter } from '../../adapter'
import { asFailedResult } from '../../http'
import { metric } from '../../metrics'
import type { AdapterOptions } from '../options'
import { forumClient, forumRefresh, listingOf, userAgentOf, type ForumContext } from './api'
import { forumInbox } from './inbox'
import { checkSubmission, publishSubmission } from './submit'

/** Subreddit listings the account's destinations come from, the page size and the pages followed at most. */
export const DESTINATION_LISTINGS = ['subscriber', 'moderator', 'contributor'] as const
export const DESTINATION_PAGE_SIZE = 100
export const MAX_DESTINATION_PAGES = 10
/** Fullnames per `/api/info` call (the network's maximum). */
export const INFO_BATCH = 100

export function createForumAdapter(options: AdapterOptions): NetworkAdapter {
  const client = (ctx: ForumContext) => forumClient(ctx, userAgentOf(options))
  return {
    ...forumInbox(client),
    credentialRefresh: forumRefresh(options),

    async verifyCredentials(input) {
      const me = await client(input)('GET', '/api/v1/me')
      const username = String(me.name ?? '')
      return {
        username,
        externalId: me.id ? `t2_${String(me.id).replace(/^t2_/, '')}` : username,
        credentials: { ...input.credentials, username },
      }
    },

    async listDestinations(input) {
      const call = client(input)
      const found = new Map<string, Destination>()
      for (const where of DESTINATION_LISTINGS) {
        let after: string | null = null
        for (let page = 0; page < MAX_DESTINATION_PAGES; page++) {
          const body = await call('GET', `/subreddits/mine/${where}`, {
            query: { limit: String(DESTINATION_PAGE_SIZE), ...(after ? { after } : {}) },
          })
          const listing = listingOf(body)
          for (const sr of listing.items) {
            const name = String(sr.display_name ?? '')
            if (!name || found.has(name.toLowerCase())) continue
            const about = String(sr.public_description || sr.title || '').trim()
            found.set(name.toLowerCase(), { id: name, name: `r/${name}`, description: about || null })
          }
          after = listing.after
          if (!after) break
        }
      }
      return [...found.values()]
    },

    async publish(input) {
      try {
        return await publishSubmission(client(input), input)
      } catch (err) {
        return asFailedResult(err)
      }
    },

    async checkStatus(input) {
      try {
        const call = client(input)
        const pending = input.progress.pending as { stage?: string } | undefined
        if (pending?.stage === 'lookup' || input.unconfirmed) return await checkSubmission(call, input)
        return await publishSubmission(call, input)
      } catch (err) {
        return asFailedResult(err)
      }
    },

    async fetchInsights(input) {
      const call = client(input)
      const byId = new Map<string, Record<string, any>>()
      for (let i = 0; i < input.posts.length; i += INFO_BATCH) {
        const ids = input.posts.slice(i, i + INFO_BATCH).map((p) => p.platformPostId)
        const body = await call('GET', '/api/info', { query: { id: ids.join(','), raw_json: '1' } })
        for (const item of listingOf(body).items) byId.set(String(item.name), item)
      }
      return {
        followers: null,
        posts: input.posts.map((p) => {
          const item = byId.get(p.platformPostId) ?? {}
          return {
            targetId: p.targetId,
            likes: metric(item.score),
            comments: metric(item.num_comments),
            shares: null,
            views: metric(item.view_count),
            saves: null,
          }
        }),
      }
    },

    async deletePost(input) {
      // The network answers an already-deleted or unknown id with success too.
      await client(input)('POST', '/api/del', { form: { id: input.platformPostId } })
    },
  }
}
