import { describe, expect, it } from 'vitest'
import { createLocalAdapter } from '../../src/networks/adapters/local'
import type { AdapterOptions } from '../../src/networks/adapters/options'
import { CommentGone } from '../../src/networks/inbox-adapter'
import { startLocalFake } from '../fakes/local'
import { CREDS } from './local-support'

const NOW = new Date('2026-11-25T10:00:00.000Z')
const ago = (h: number) => new Date(NOW.getTime() - h * 3_600_000)
const adapter = createLocalAdapter({ clients: {}, origins: {} } as unknown as AdapterOptions)

async function setup() {
  const fake = await startLocalFake()
  const base = {
    accountId: 'acc_1',
    connection: 'DIRECT_LOGIN',
    credentials: CREDS,
    fetch,
    baseUrl: fake.url,
    now: NOW,
  }
  const posts = (n: number) => {
    for (let i = 0; i < n; i++) {
      const name = `accounts/101/locations/9001/localPosts/80${i}`
      fake.state.posts.set(name, {
        name,
        body: { summary: `offer ${i}`, topicType: 'STANDARD', languageCode: 'en' },
        createTime: ago(n - i).toISOString(),
        state: 'LIVE',
        readsLeft: 0,
        photo: null,
      })
    }
  }
  const review = (id: string, over: Record<string, unknown> = {}) =>
    fake.state.reviews.push({
      reviewId: id,
      locationId: '9001',
      starRating: 'FOUR',
      comment: `Review ${id}`,
      reviewer: `Guest ${id}`,
      reply: null,
      ...over,
    })
  return { fake, base, posts, review }
}

describe('LOCAL_NET inbox', () => {
  it('imports the live local posts newest first, following the page token', async () => {
    const { base, posts, fake } = await setup()
    posts(120)
    const first = await adapter.listPosts!({ ...base, cursor: null, since: ago(24 * 30) })
    expect(first.posts).toHaveLength(100)
    expect(first.posts[0]).toMatchObject({
      platformPostId: 'accounts/101/locations/9001/localPosts/80119',
      text: 'offer 119',
      permalink: expect.stringContaining('lpsid=80119'),
      metrics: { likes: null, views: null, clicks: null },
    })
    const second = await adapter.listPosts!({ ...base, cursor: first.nextCursor, since: ago(24 * 30) })
    expect(second.posts).toHaveLength(20)
    expect(second.nextCursor).toBeNull()
    expect(fake.calls('GET', /localPosts$/)[0]!.headers.authorization).toMatch(/^Bearer /)
    expect((await adapter.listPosts!({ ...base, cursor: null, since: ago(10.5) })).posts).toHaveLength(10)
  })

  it("reads reviews as mentions with the owner's answer under each, over pages", async () => {
    const { base, review } = await setup()
    review('a', { reply: { comment: 'Thanks!', updateTime: ago(1).toISOString() }, createTime: ago(2).toISOString() })
    review('b', { reviewer: null, starRating: 'ONE' })
    for (let i = 0; i < 50; i++) review(`n${i}`)
    const first = await adapter.listMentions!({ ...base, cursor: null, since: null })
    expect(first.comments.slice(0, 3)).toEqual([
      expect.objectContaining({
        externalId: 'accounts/101/locations/9001/reviews/a',
        parentExternalId: null,
        postExternalId: null,
        text: '(4/5) Review a',
        author: expect.objectContaining({ name: 'Guest a' }),
        fromAccount: false,
      }),
      expect.objectContaining({
        externalId: 'accounts/101/locations/9001/reviews/a/reply',
        parentExternalId: 'accounts/101/locations/9001/reviews/a',
        text: 'Thanks!',
        fromAccount: true,
      }),
      expect.objectContaining({ author: expect.objectContaining({ name: 'A Google user' }), text: '(1/5) Review b' }),
    ])
    expect(first.nextCursor).not.toBeNull()
    const second = await adapter.listMentions!({ ...base, cursor: first.nextCursor, since: null })
    expect(second.comments).toHaveLength(2)
    expect(second.nextCursor).toBeNull()
  })

  it('answers a review through updateReply; a review gone is gone; a 429 waits', async () => {
    const { base, review, fake } = await setup()
    review('a')
    const ref = { externalId: 'accounts/101/locations/9001/reviews/a', postExternalId: null, parentExternalId: null }
    const sent = await adapter.replyToComment!({ ...base, comment: ref, text: 'See you soon', idempotencyKey: 'k' })
    expect(sent.externalId).toBe('accounts/101/locations/9001/reviews/a/reply')
    const call = fake.calls('PUT', /\/reviews\/a\/reply$/)[0]!
    expect(call.json()).toEqual({ comment: 'See you soon' })
    expect(fake.state.reviews[0]!.reply?.comment).toBe('See you soon')
    await expect(
      adapter.replyToComment!({
        ...base,
        comment: { ...ref, externalId: 'accounts/101/locations/9001/reviews/zz' },
        text: 'x',
        idempotencyKey: 'k2',
      }),
    ).rejects.toBeInstanceOf(CommentGone)
    await expect(
      adapter.replyToComment!({
        ...base,
        comment: { ...ref, externalId: 'accounts/999/locations/1/reviews/a' },
        text: 'x',
        idempotencyKey: 'k3',
      }),
    ).rejects.toMatchObject({ kind: 'rejected' })
    fake.fault('GET', /\/reviews$/, { kind: 'rate-limit', retryAfterSec: 33 })
    await expect(adapter.listMentions!({ ...base, cursor: null, since: null })).rejects.toMatchObject({
      kind: 'rate_limited',
      retryAfterSec: 33,
    })
    expect(adapter.listComments).toBeUndefined()
    expect(adapter.hideComment).toBeUndefined()
    expect(adapter.deleteComment).toBeUndefined()
  })
})
