/**
 * The community network (Lemmy, HTTP API v3 of Lemmy 0.19, on the account's own instance): a post
 * with a title in one community the account follows, a Markdown body, a URL and at most one image;
 * no thread. Connected with the instance, login and password (session.ts); published exactly once
 * by reading the account's newest posts back before any second create (publish.ts). Followed:
 * https://join-lemmy.org/api/, https://join-lemmy.org/docs/en/client_development/api_reference.html and the
 * request and answer types of the official client (LemmyNet/lemmy-js-client, 0.19 tags).
 */
import type { BoardsInput, Destination, NetworkAdapter, PendingInput, PublishInput, PublishResult } from '../../adapter'
import { asFailedResult } from '../../http'
import { metric } from '../../metrics'
import type { AdapterOptions } from '../options'
import { type CallContext, isCode, lemmy } from './api'
import { contextOf, publishFlow, settle } from './publish'
import { sessionOf, verifyLogin } from './session'
import * as inbox from './inbox'

/** Communities read per page (the server's maximum), and pages at most. */
const PAGE_SIZE = 50
const MAX_PAGES = 20

interface Reader {
  credentials: Record<string, unknown>
  fetch: typeof fetch
  baseUrl: string
  now: Date
}

const callOf = (input: Reader): CallContext => ({
  fetch: input.fetch,
  baseUrl: input.baseUrl,
  now: input.now,
  jwt: sessionOf(input.credentials).jwt,
})

/** `!name@host`, as the network writes a community's address. */
function addressOf(community: Record<string, any>): string {
  let host = ''
  try {
    host = new URL(String(community.actor_id)).host
  } catch {
    // A community without a readable actor id is named without its host.
  }
  return host ? `!${community.name}@${host}` : `!${community.name}`
}

export function createCommunityAdapter(_options: AdapterOptions): NetworkAdapter {
  async function run(input: PublishInput | PendingInput): Promise<PublishResult> {
    try {
      const ctx = contextOf(input)
      if ('unconfirmed' in input && input.unconfirmed) return await settle(ctx)
      return await publishFlow(ctx)
    } catch (err) {
      return asFailedResult(err)
    }
  }

  return {
    publish: run,
    checkStatus: run,
    verifyCredentials: verifyLogin,
    listPosts: inbox.listPosts,
    listComments: inbox.listComments,
    listMentions: inbox.listMentions,
    replyToComment: inbox.replyToComment,
    deleteComment: inbox.deleteComment,
    likeComment: inbox.likeComment,

    /** The communities the account follows (`GET /api/v3/community/list?type_=Subscribed`), page by page. */
    async listDestinations(input: BoardsInput): Promise<Destination[]> {
      const call = callOf(input)
      const found: Destination[] = []
      for (let page = 1; page <= MAX_PAGES; page++) {
        const answer = await lemmy(call, 'community/list', {
          query: { type_: 'Subscribed', sort: 'Active', page, limit: PAGE_SIZE },
        })
        const views: any[] = Array.isArray(answer?.communities) ? answer.communities : []
        for (const view of views) {
          const community = view?.community
          if (!community || typeof community.id !== 'number' || community.deleted || community.removed) continue
          found.push({
            id: String(community.id),
            name: typeof community.title === 'string' && community.title ? community.title : String(community.name),
            description: addressOf(community),
          })
        }
        if (views.length < PAGE_SIZE) break
      }
      return found
    },

    async fetchInsights(input) {
      const call = callOf(input)
      const posts = []
      for (const post of input.posts) {
        try {
          const answer = await lemmy(call, 'post', { query: { id: post.platformPostId } })
          const counts = answer?.post_view?.counts ?? {}
          posts.push({
            targetId: post.targetId,
            // The score may go below zero; a negative score is no count of likes.
            likes: metric(counts.score),
            comments: metric(counts.comments),
            shares: null,
            views: null,
            saves: null,
          })
        } catch (err) {
          // A post deleted or removed on the network reports nothing any more.
          if (!isCode(err, 'couldnt_find_post')) throw err
          posts.push({ targetId: post.targetId, likes: null, comments: null, shares: null, views: null, saves: null })
        }
      }
      return { followers: null, posts }
    },

    async deletePost(input) {
      try {
        await lemmy(callOf(input), 'post/delete', {
          method: 'POST',
          json: { post_id: Number(input.platformPostId), deleted: true },
        })
      } catch (err) {
        // Gone already (`couldnt_find_post`), or deleted before: the server refuses to delete twice
        // with `couldnt_update_post`. Either way the post is not on the network.
        if (!isCode(err, 'couldnt_find_post', 'couldnt_update_post')) throw err
      }
    },
  }
}
