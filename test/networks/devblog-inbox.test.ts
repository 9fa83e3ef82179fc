import { describe, expect, it } from 'vitest'
import type { AccountCallInput } from '../../src/networks/adapter'
import { createDevblogAdapter } from '../../src/networks/adapters/devblog'
import { NetworkFailure } from '../../src/networks/http'
import { CommentGone } from '../../src/networks/inbox-adapter'
import { startDevblogFake, type DevblogArticle } from '../fakes/devblog'

const adapter = createDevblogAdapter({ clients: {}, origins: {} as never })
const NOW = new Date('2026-11-21T10:00:00Z')
const reader = { name: 'Grace', username: 'grace', user_id: 7 }
const author = { name: 'Ada', username: 'ada_writes', user_id: 4242 }

async function setup() {
  let now = NOW
  const fake = await startDevblogFake({ now: () => now })
  const base: AccountCallInput = {
    accountId: 'acc_1',
    connection: 'API_KEY',
    credentials: { apiKey: fake.apiKey },
    fetch,
    baseUrl: fake.url,
    now: NOW,
  }
  const article = (i: number, published = true): DevblogArticle => {
    now = new Date(NOW.getTime() + i * 60_000)
    const a: DevblogArticle = {
      id: 5000 + i,
      title: `Article ${i}`,
      body_markdown: 'Body',
      published,
      published_at: published ? now.toISOString() : null,
      tags: [],
      canonical_url: null,
      description: null,
      series: null,
      main_image: null,
      public_reactions_count: i,
      comments_count: 2,
      page_views_count: 10 * i,
      sent: {},
    }
    fake.state.articles.push(a)
    return a
  }
  return { fake, base, article, tick: (min: number) => (now = new Date(NOW.getTime() + min * 60_000)) }
}

describe('DEVBLOG_NET inbox (read-only)', () => {
  it('lists published articles newest first with their figures, page by page, stopping at since', async () => {
    const { base, article, fake } = await setup()
    for (let i = 1; i <= 101; i++) article(i)
    article(102, false)
    const since = new Date(NOW.getTime() - 3600_000)
    const first = await adapter.listPosts!({ ...base, cursor: null, since })
    expect(first.posts).toHaveLength(100)
    expect(first.posts[0]).toMatchObject({
      platformPostId: '5101',
      text: 'Article 101',
      permalink: `${fake.url}/ada_writes/article-5101`,
      metrics: { likes: 101, comments: 2, views: 1010, shares: null, reach: null },
    })
    expect(first.nextCursor).toBe('2')
    const second = await adapter.listPosts!({ ...base, cursor: '2', since })
    expect(second.posts.map((p) => p.platformPostId)).toEqual(['5001'])
    expect(second.nextCursor).toBeNull()
    const call = fake.server.calls('GET', '/api/articles/me/published').at(-1)!
    expect(call.headers).toMatchObject({ 'api-key': fake.apiKey, accept: 'application/vnd.forem.api-v1+json' })
    const late = await adapter.listPosts!({ ...base, cursor: null, since: new Date(NOW.getTime() + 100 * 60_000) })
    expect(late.posts.map((p) => p.platformPostId)).toEqual(['5101', '5100'])
    expect(late.nextCursor).toBeNull()
  })

  it('reads threads with nested replies, paged over top-level comments', async () => {
    const { base, article, fake, tick } = await setup()
    const a = article(1)
    const first = fake.comment(a.id, 'Nice &amp; clear', reader)
    tick(5)
    const answer = fake.comment(a.id, 'Thanks!', author, first.id_code)
    fake.comment(a.id, 'Indeed', reader, answer.id_code)
    for (let i = 0; i < 50; i++) fake.comment(a.id, `top ${i}`, reader)
    const post = { platformPostId: String(a.id), publishedAt: NOW, permalink: `${fake.url}/ada_writes/article-${a.id}` }
    const page1 = await adapter.listComments!({ ...base, post, cursor: null, since: null })
    expect(page1.comments.slice(0, 3)).toEqual([
      expect.objectContaining({
        externalId: first.id_code,
        parentExternalId: null,
        postExternalId: String(a.id),
        text: 'Nice & clear',
        author: expect.objectContaining({ name: 'Grace', handle: 'grace', externalId: '7' }),
        permalink: `${fake.url}/grace/comment/${first.id_code}`,
        fromAccount: false,
        hidden: null,
      }),
      expect.objectContaining({ externalId: answer.id_code, parentExternalId: first.id_code, fromAccount: true }),
      expect.objectContaining({ text: 'Indeed', parentExternalId: answer.id_code }),
    ])
    expect(page1.comments).toHaveLength(52)
    expect(page1.nextCursor).toBe('2')
    const page2 = await adapter.listComments!({ ...base, post, cursor: '2', since: null })
    expect(page2.comments.map((c) => c.text)).toEqual(['top 49'])
    expect(page2.nextCursor).toBeNull()
    expect(fake.server.calls('GET', '/api/comments').at(-1)!.query.get('a_id')).toBe(String(a.id))
  })

  it('an article gone is CommentGone; a 429 is rate_limited with Retry-After; no write methods', async () => {
    const { base, fake } = await setup()
    const post = { platformPostId: '999', publishedAt: NOW, permalink: null }
    await expect(adapter.listComments!({ ...base, post, cursor: null, since: null })).rejects.toBeInstanceOf(
      CommentGone,
    )
    fake.server.fault('GET', '/api/articles/me/published', {
      kind: 'rate-limit',
      retryAfterSec: 30,
      json: { error: 'Rate limit reached, try again in 30 seconds', status: 429 },
    })
    const err = await adapter.listPosts!({ ...base, cursor: null, since: NOW }).catch((e) => e)
    expect(err).toBeInstanceOf(NetworkFailure)
    expect(err).toMatchObject({ kind: 'rate_limited', retryAfterSec: 30 })
    expect(adapter.replyToComment).toBeUndefined()
    expect(adapter.hideComment).toBeUndefined()
    expect(adapter.deleteComment).toBeUndefined()
  })
})
