import { describe, expect, it } from 'vitest'
import type { AccountCallInput } from '../../src/networks/adapter'
import { createBlogAdapter } from '../../src/networks/adapters/blog'
import { NetworkFailure } from '../../src/networks/http'
import { CommentGone } from '../../src/networks/inbox-adapter'
import { startBlogFake, type FakeBlogPost } from '../fakes/blog'

const adapter = createBlogAdapter({ clients: {}, origins: {} as never })
const BLOG = { blogId: 't:AdaBakes0000000000001', blogName: 'ada-bakes' }
const T0 = 1_795_000_000

async function setup() {
  const fake = await startBlogFake()
  const base: AccountCallInput = {
    accountId: 'acc_1',
    connection: 'DIRECT_LOGIN',
    credentials: { accessToken: fake.state.accessToken, ...BLOG },
    fetch,
    baseUrl: fake.url,
    now: new Date(T0 * 1000),
  }
  const addPost = (i: number, blog = BLOG.blogId): FakeBlogPost => {
    const p: FakeBlogPost = {
      id: String(900_000 + i),
      blog,
      state: 'published',
      timestamp: T0 + i * 60,
      tags: [],
      source_url: null,
      content: [{ type: 'text', text: `Post ${i}` }],
      uploads: new Map(),
      notes: { likes: 0, reblogs: 0, replies: 0 },
      replyNotes: [],
    }
    fake.state.posts.unshift(p)
    return p
  }
  return { fake, base, addPost }
}

const ref = (p: FakeBlogPost) => ({
  platformPostId: p.id,
  publishedAt: new Date(p.timestamp * 1000),
  permalink: `https://www.tumblr.com/ada-bakes/${p.id}`,
})

describe('BLOG_NET inbox (read-only)', () => {
  it('lists the blog’s posts newest first, 20 a page, following _links.next, stopping at since', async () => {
    const { base, addPost, fake } = await setup()
    for (let i = 1; i <= 25; i++) addPost(i)
    const since = new Date((T0 - 3600) * 1000)
    const first = await adapter.listPosts!({ ...base, cursor: null, since })
    expect(first.posts).toHaveLength(20)
    expect(first.posts[0]).toMatchObject({
      platformPostId: '900025',
      text: 'Post 25',
      permalink: 'https://www.tumblr.com/ada-bakes/900025',
      publishedAt: new Date((T0 + 25 * 60) * 1000),
    })
    expect(first.nextCursor).toBe('20')
    const second = await adapter.listPosts!({ ...base, cursor: first.nextCursor, since })
    expect(second.posts.map((p) => p.text)).toEqual(['Post 5', 'Post 4', 'Post 3', 'Post 2', 'Post 1'])
    expect(second.nextCursor).toBeNull()
    const call = fake.calls('GET', `/v2/blog/${encodeURIComponent(BLOG.blogId)}/posts`).at(-1)!
    expect(Object.fromEntries(call.query)).toEqual({ npf: 'true', limit: '20', offset: '20' })
    expect(call.headers['user-agent']).toBe('social-publishing-service/1.0')
    const recent = await adapter.listPosts!({ ...base, cursor: null, since: new Date((T0 + 24 * 60) * 1000) })
    expect(recent.posts.map((p) => p.text)).toEqual(['Post 25', 'Post 24'])
    expect(recent.nextCursor).toBeNull()
  })

  it('reads replies from the conversation notes, newest first, paged with before_timestamp', async () => {
    const { base, addPost, fake } = await setup()
    const p = addPost(1)
    for (let i = 0; i < 51; i++)
      p.replyNotes!.push({
        blog_name: `fan${i}`,
        blog_uuid: `t:fan${i}`,
        reply_text: `reply ${i}`,
        timestamp: T0 + 1000 + i,
      })
    p.replyNotes!.push({
      blog_name: 'ada-bakes',
      blog_uuid: BLOG.blogId,
      reply_text: 'thanks all',
      timestamp: T0 + 2000,
    })
    const page1 = await adapter.listComments!({ ...base, post: ref(p), cursor: null, since: null })
    expect(page1.comments).toHaveLength(50)
    expect(page1.comments[0]).toMatchObject({
      externalId: `${BLOG.blogId}:${T0 + 2000}`,
      text: 'thanks all',
      fromAccount: true,
      parentExternalId: null,
      postExternalId: p.id,
    })
    expect(page1.comments[1]).toMatchObject({
      author: { name: 'fan50', handle: 'fan50', externalId: 't:fan50', avatarUrl: null },
      fromAccount: false,
      hidden: null,
    })
    expect(page1.nextCursor).toBe(String(T0 + 1002))
    const page2 = await adapter.listComments!({ ...base, post: ref(p), cursor: page1.nextCursor, since: null })
    expect(page2.comments.map((c) => c.text)).toEqual(['reply 1', 'reply 0'])
    expect(page2.nextCursor).toBeNull()
    const q = fake.calls('GET', `/v2/blog/${encodeURIComponent(BLOG.blogId)}/notes`).at(-1)!.query
    expect(Object.fromEntries(q)).toEqual({ id: p.id, mode: 'conversation', before_timestamp: String(T0 + 1002) })
    const fresh = await adapter.listComments!({
      ...base,
      post: ref(p),
      cursor: null,
      since: new Date((T0 + 1049) * 1000),
    })
    expect(fresh.comments.map((c) => c.text)).toEqual(['thanks all', 'reply 50'])
    expect(fresh.nextCursor).toBeNull()
  })

  it('a deleted post is CommentGone; a 429 waits; no write methods', async () => {
    const { base, addPost, fake } = await setup()
    const p = addPost(1)
    fake.state.posts.splice(0, 1)
    await expect(adapter.listComments!({ ...base, post: ref(p), cursor: null, since: null })).rejects.toBeInstanceOf(
      CommentGone,
    )
    fake.failNextError(429, 0, 'Limit Exceeded', { 'retry-after': '120' })
    const err = await adapter.listPosts!({ ...base, cursor: null, since: new Date(0) }).catch((e) => e)
    expect(err).toBeInstanceOf(NetworkFailure)
    expect(err).toMatchObject({ kind: 'rate_limited', retryAfterSec: 120 })
    expect(adapter.replyToComment).toBeUndefined()
    expect(adapter.deleteComment).toBeUndefined()
  })
})
