import { describe, expect, it } from 'vitest'
import type { AccountCallInput } from '../../src/networks/adapter'
import { createSiteAdapter } from '../../src/networks/adapters/site'
import { NetworkFailure } from '../../src/networks/http'
import { CommentGone } from '../../src/networks/inbox-adapter'
import { startSiteFake } from '../fakes/site'

const adapter = createSiteAdapter({ clients: {}, origins: {} as never })
const NOW = new Date('2026-11-21T10:00:00Z')

async function setup() {
  let now = NOW
  const fake = await startSiteFake({ now: () => now })
  const base: AccountCallInput = {
    accountId: 'acc_1',
    connection: 'APP_PASSWORD',
    credentials: { username: 'wren', applicationPassword: fake.self.applicationPassword },
    fetch,
    baseUrl: fake.url,
    now: NOW,
  }
  const addPost = (i: number, author = 7) => {
    now = new Date(NOW.getTime() + i * 60_000)
    const p = {
      id: 1000 + i,
      type: 'post' as const,
      title: `Post ${i} & co`,
      content: `<p>Body ${i}</p>`,
      excerpt: '',
      status: 'publish',
      slug: `post-${i}`,
      categories: [1],
      tags: [],
      featured_media: 0,
      author,
      date: now.toISOString(),
      comments: 0,
    }
    fake.self.site.posts.push(p)
    return p
  }
  return { fake, base, addPost, tick: (min: number) => (now = new Date(NOW.getTime() + min * 60_000)) }
}

const post = (id: number) => ({ platformPostId: String(id), publishedAt: NOW, permalink: null })

describe('SITE_NET inbox', () => {
  it('lists the author’s posts newest first, page by page', async () => {
    const { base, addPost, fake } = await setup()
    for (let i = 0; i < 102; i++) addPost(i)
    addPost(200, 8)
    const since = new Date(NOW.getTime() - 86_400_000)
    const first = await adapter.listPosts!({ ...base, cursor: null, since })
    expect(first.posts).toHaveLength(100)
    expect(first.posts[0]).toMatchObject({
      platformPostId: '1101',
      text: 'Body 101',
      permalink: `${fake.url}/post-101/`,
    })
    expect(first.posts[0]!.metrics.likes).toBeNull()
    expect(first.nextCursor).toBe('2')
    const second = await adapter.listPosts!({ ...base, cursor: '2', since })
    expect(second.posts.map((p) => p.platformPostId)).toEqual(['1001', '1000'])
    expect(second.nextCursor).toBeNull()
    const q = fake.server.calls('GET', '/wp-json/wp/v2/posts').at(-1)!.query
    expect(Object.fromEntries(q)).toMatchObject({ author: '7', page: '2', per_page: '100', after: since.toISOString() })
  })

  it('reads comments with their threads and held ones as hidden, paged', async () => {
    const { base, addPost, fake, tick } = await setup()
    const p = addPost(1)
    const c1 = fake.comment(p.id, { content: 'Great <post>', author_name: 'Ann' })
    tick(5)
    fake.comment(p.id, { content: 'Buy pills', status: 'hold' })
    for (let i = 0; i < 98; i++) {
      tick(10 + i)
      fake.comment(p.id, { content: `c${i}` })
    }
    tick(200)
    const reply = fake.comment(p.id, { content: 'Thanks Ann', parent: c1.id, author: 7, author_name: 'Wren Writer' })
    const first = await adapter.listComments!({ ...base, post: post(p.id), cursor: null, since: null })
    expect(first.comments).toHaveLength(100)
    expect(first.comments[0]).toMatchObject({
      externalId: String(c1.id),
      parentExternalId: null,
      postExternalId: String(p.id),
      text: 'Great <post>',
      author: { name: 'Ann', externalId: null },
      hidden: false,
      fromAccount: false,
    })
    expect(first.comments[1]).toMatchObject({ text: 'Buy pills', hidden: true })
    const second = await adapter.listComments!({ ...base, post: post(p.id), cursor: first.nextCursor, since: null })
    expect(second.comments.map((c) => [c.externalId, c.parentExternalId, c.fromAccount])).toEqual([
      [String(reply.id), String(c1.id), true],
    ])
    expect(second.nextCursor).toBeNull()
    const q = fake.server.calls('GET', '/wp-json/wp/v2/comments').at(-1)!.query
    expect(Object.fromEntries(q)).toMatchObject({ post: String(p.id), context: 'edit', status: 'all', order: 'asc' })
  })

  it('replies with post and parent, hides with hold, unhides with approved, deletes to the trash', async () => {
    const { base, addPost, fake } = await setup()
    const p = addPost(1)
    const c1 = fake.comment(p.id, { content: 'Hello' })
    const ref = { externalId: String(c1.id), postExternalId: String(p.id), parentExternalId: null }
    const sent = await adapter.replyToComment!({ ...base, comment: ref, text: 'Hi back', idempotencyKey: 'k' })
    const call = fake.server.calls('POST', '/wp-json/wp/v2/comments')[0]!
    expect(call.json()).toEqual({ post: p.id, parent: c1.id, content: 'Hi back' })
    expect(call.headers.authorization).toMatch(/^Basic /)
    expect(fake.self.site.comments.find((c) => String(c.id) === sent.externalId)).toMatchObject({
      parent: c1.id,
      author: 7,
    })
    expect(sent.permalink).toContain(`#comment-${sent.externalId}`)
    await adapter.hideComment!({ ...base, comment: ref, hidden: true })
    expect(c1.status).toBe('hold')
    await adapter.hideComment!({ ...base, comment: ref, hidden: false })
    expect(c1.status).toBe('approved')
    expect(fake.server.calls('POST', `/wp-json/wp/v2/comments/${c1.id}`).map((r) => r.json())).toEqual([
      { status: 'hold' },
      { status: 'approved' },
    ])
    await adapter.deleteComment!({ ...base, comment: ref })
    expect(c1.status).toBe('trash')
    await expect(adapter.deleteComment!({ ...base, comment: ref })).rejects.toBeInstanceOf(CommentGone)
    await expect(adapter.hideComment!({ ...base, comment: ref, hidden: true })).rejects.toBeInstanceOf(CommentGone)
    await expect(
      adapter.replyToComment!({ ...base, comment: ref, text: 'late', idempotencyKey: 'k2' }),
    ).rejects.toBeInstanceOf(CommentGone)
    const missing = { ...ref, externalId: '999999' }
    await expect(adapter.deleteComment!({ ...base, comment: missing })).rejects.toBeInstanceOf(CommentGone)
  })

  it('a 429 from the host is rate_limited with its Retry-After; a revoked password is auth_expired', async () => {
    const { base, addPost, fake } = await setup()
    const p = addPost(1)
    fake.server.fault('GET', '/wp-json/wp/v2/comments', { kind: 'rate-limit', retryAfterSec: 90 })
    const err = await adapter.listComments!({ ...base, post: post(p.id), cursor: null, since: null }).catch((e) => e)
    expect(err).toBeInstanceOf(NetworkFailure)
    expect(err).toMatchObject({ kind: 'rate_limited', retryAfterSec: 90 })
    fake.revokeApplicationPassword()
    await expect(adapter.listPosts!({ ...base, cursor: null, since: new Date(0) })).rejects.toMatchObject({
      kind: 'auth_expired',
    })
  })
})
