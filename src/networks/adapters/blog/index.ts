/**
 * The blog network (Tumblr API v2, Neue Post Format). A sign-in grants the member's token; each
 * blog the member may post to (`/v2/user/info`) is an identity to choose, and an account is one
 * blog: its credentials hold the blog's uuid (`blogId`, used in every call) and name (`blogName`,
 * used in links). A post is created with its media in one multipart request (publish.ts, npf.ts);
 * notes give likes and reblogs; a post is deleted with `POST /v2/blog/{id}/post/delete`.
 */
import type { NetworkAdapter, VerifiedAccount, VerifyInput } from '../../adapter'
import { NetworkFailure, asFailedResult } from '../../http'
import { metric } from '../../metrics'
import type { AdapterOptions } from '../options'
import { NETWORK, blogClient, blogIdOf, blogPath, blogRefresh } from './api'
import { listComments, listPosts } from './inbox'
import { publishPost, settleUnconfirmed } from './publish'

interface UserBlog {
  name?: unknown
  title?: unknown
  uuid?: unknown
  followers?: unknown
}

/** The blogs the member may post to, from `/v2/user/info`. */
async function userBlogs(input: Pick<VerifyInput, 'fetch' | 'baseUrl' | 'now' | 'credentials'>): Promise<UserBlog[]> {
  const answer = await blogClient(input)('GET', '/v2/user/info')
  const blogs = answer?.user?.blogs
  return Array.isArray(blogs) ? blogs : []
}

const idOf = (b: UserBlog) => (typeof b.uuid === 'string' && b.uuid ? b.uuid : String(b.name ?? ''))

function identity(input: VerifyInput, b: UserBlog): VerifiedAccount {
  const name = String(b.name ?? '')
  return { username: name, externalId: idOf(b), credentials: { ...input.credentials, blogId: idOf(b), blogName: name } }
}

export function createBlogAdapter(options: AdapterOptions): NetworkAdapter {
  return {
    credentialRefresh: blogRefresh(options),
    listPosts,
    listComments,

    async listIdentities(input) {
      const blogs = (await userBlogs(input)).filter((b) => typeof b.name === 'string' && b.name !== '')
      if (blogs.length === 0) throw new NetworkFailure('rejected', `${NETWORK}: this member has no blog to post to.`)
      return blogs.map((b) => identity(input, b))
    },

    async verifyCredentials(input) {
      const id = blogIdOf(input.credentials)
      const blog = (await userBlogs(input)).find((b) => idOf(b) === id || b.name === id)
      if (!blog)
        throw new NetworkFailure(
          'rejected',
          `${NETWORK}: this member can no longer post to the blog ${String(input.credentials.blogName ?? id)}.`,
        )
      return identity(input, blog)
    },

    async publish(input) {
      try {
        return await publishPost(input)
      } catch (err) {
        return asFailedResult(err)
      }
    },

    async checkStatus(input) {
      try {
        return input.unconfirmed ? await settleUnconfirmed(input) : await publishPost(input)
      } catch (err) {
        return asFailedResult(err)
      }
    },

    async fetchInsights(input) {
      const call = blogClient(input)
      const id = blogIdOf(input.credentials)
      const blog = (await userBlogs(input)).find((b) => idOf(b) === id)
      const posts = []
      for (const post of input.posts) {
        // `conversation` mode is the one whose answer totals likes and reblogs.
        let notes: Record<string, unknown> = {}
        try {
          notes = await call('GET', blogPath(input.credentials, '/notes'), {
            query: { id: post.platformPostId, mode: 'conversation' },
          })
        } catch (err) {
          if (!(err instanceof NetworkFailure && err.kind === 'rejected')) throw err
        }
        posts.push({
          targetId: post.targetId,
          likes: metric(notes.total_likes),
          comments: null,
          shares: metric(notes.total_reblogs),
          views: null,
          saves: null,
        })
      }
      return { followers: metric(blog?.followers), posts }
    },

    async deletePost(input) {
      try {
        await blogClient(input)('POST', blogPath(input.credentials, '/post/delete'), {
          form: { id: input.platformPostId },
        })
      } catch (err) {
        // Already gone is what the user asked for.
        if (!(err instanceof NetworkFailure && /HTTP 404|not found/i.test(err.message))) throw err
      }
    },
  }
}
