import { describe, expect, it } from 'vitest'
import { createMicroblogAdapter } from '../../src/networks/adapters/microblog'
import { NetworkFailure } from '../../src/networks/http'
import { CommentGone } from '../../src/networks/inbox-adapter'
import { startMicroblogFake } from '../fakes/microblog'

const NOW = new Date('2026-11-21T10:00:00.000Z')
const at = (minutesAgo: number) => new Date(NOW.getTime() - minutesAgo * 60_000).toISOString()
const STRANGER = { id: '42', username: 'stranger', name: 'A Stranger' }

async function setup() {
  const fake = await startMicroblogFake({ now: () => NOW })
  const adapter = createMicroblogAdapter({ clients: {}, origins: {} as never })
  const call = {
    accountId: 'acc_1',
    connection: 'DIRECT_LOGIN',
    credentials: { accessToken: 'access-1', userId: fake.userId, username: fake.username },
    fetch,
    baseUrl: fake.url,
    now: NOW,
  }
  return { fake, adapter, call }
}

describe('microblog inbox', () => {
  it('lists the account posts newest first, with metrics, permalinks and paging', async () => {
    const { fake, adapter, call } = await setup()
    for (let i = 0; i < 105; i++) fake.addTweet(`post ${i}`, at(200 - i))
    fake.addTweet('a reply of mine', at(1), fake.tweets[0]!.id)
    const first = await adapter.listPosts!({ ...call, cursor: null, since: new Date(at(60 * 24 * 30)) })
    expect(first.posts).toHaveLength(100)
    expect(first.posts[0]!.text).toBe('post 104')
    expect(first.posts[0]!.permalink).toBe(`https://x.com/acme/status/${first.posts[0]!.platformPostId}`)
    expect(first.posts[0]!.metrics).toMatchObject({ likes: 0, comments: 0, impressions: 0, clicks: null, reach: null })
    expect(first.nextCursor).not.toBeNull()
    const second = await adapter.listPosts!({ ...call, cursor: first.nextCursor, since: new Date(at(60 * 24 * 30)) })
    expect(second.posts.map((p) => p.text)).toEqual(['post 4', 'post 3', 'post 2', 'post 1', 'post 0'])
    expect(second.nextCursor).toBeNull()
    const req = fake.calls('GET', `/2/users/${fake.userId}/tweets`)[1]!
    expect(req.query.get('exclude')).toBe('replies,retweets')
    expect(req.query.get('pagination_token')).toBe(first.nextCursor)
  })

  it('lists the replies of a post as a thread, paged by next_token', async () => {
    const { fake, adapter, call } = await setup()
    const post = fake.addTweet('my post', at(300))
    const replies = Array.from({ length: 110 }, (_, i) => fake.addOthers(STRANGER, `reply ${i}`, at(200 - i), post.id))
    const mine = fake.addTweet('thanks!', at(50), replies[0]!.id)
    const input = {
      ...call,
      post: { platformPostId: post.id, publishedAt: new Date(at(300)), permalink: null },
      since: null,
    }
    const all = []
    let cursor: string | null = null
    let pages = 0
    do {
      const page = await adapter.listComments!({ ...input, cursor })
      all.push(...page.comments)
      cursor = page.nextCursor
      pages++
    } while (cursor)
    expect(pages).toBe(2)
    expect(all).toHaveLength(111)
    const answer = all.find((c) => c.externalId === mine.id)!
    expect(answer).toMatchObject({ parentExternalId: replies[0]!.id, postExternalId: post.id, fromAccount: true })
    const top = all.find((c) => c.externalId === replies[3]!.id)!
    expect(top).toMatchObject({
      parentExternalId: null,
      text: 'reply 3',
      fromAccount: false,
      author: { externalId: '42', name: 'A Stranger', handle: 'stranger' },
      permalink: `https://x.com/stranger/status/${replies[3]!.id}`,
    })
    const req = fake.calls('GET', '/2/tweets/search/recent')[0]!
    expect(req.query.get('query')).toBe(`conversation_id:${post.id}`)
    expect(req.query.get('expansions')).toBe('author_id')
  })

  it('lists mentions of the account', async () => {
    const { fake, adapter, call } = await setup()
    const m = fake.addOthers(STRANGER, 'hello @acme', at(5))
    const page = await adapter.listMentions!({ ...call, cursor: null, since: null })
    expect(page.comments.map((c) => c.externalId)).toEqual([m.id])
    expect(page.comments[0]).toMatchObject({ postExternalId: m.id, parentExternalId: null })
  })

  it('replies, hides, unhides, likes and deletes, sending what the docs require', async () => {
    const { fake, adapter, call } = await setup()
    const post = fake.addTweet('my post', at(300))
    const reply = fake.addOthers(STRANGER, 'nice', at(10), post.id)
    const comment = { externalId: reply.id, postExternalId: post.id, parentExternalId: null }
    const sent = await adapter.replyToComment!({ ...call, comment, text: 'thank you & welcome', idempotencyKey: 'k1' })
    expect(fake.calls('POST', '/2/tweets').at(-1)!.json()).toEqual({
      text: 'thank you & welcome',
      reply: { in_reply_to_tweet_id: reply.id },
    })
    expect(sent.permalink).toBe(`https://x.com/acme/status/${sent.externalId}`)
    await adapter.hideComment!({ ...call, comment, hidden: true })
    expect(fake.hidden.has(reply.id)).toBe(true)
    expect(fake.calls('PUT', `/2/tweets/${reply.id}/hidden`)[0]!.json()).toEqual({ hidden: true })
    await adapter.hideComment!({ ...call, comment, hidden: false })
    expect(fake.hidden.has(reply.id)).toBe(false)
    await adapter.likeComment!({ ...call, comment })
    expect(fake.likes.has(reply.id)).toBe(true)
    const mine = { externalId: sent.externalId, postExternalId: post.id, parentExternalId: reply.id }
    await adapter.deleteComment!({ ...call, comment: mine })
    expect(fake.tweets.some((t) => t.id === sent.externalId)).toBe(false)
  })

  it('a reply refused from hiding says so in words', async () => {
    const { fake, adapter, call } = await setup()
    const other = fake.addOthers(STRANGER, 'their post', at(30))
    const reply = fake.addOthers({ id: '43', username: 'b', name: 'B' }, 'a reply', at(20), other.id)
    const comment = { externalId: reply.id, postExternalId: other.id, parentExternalId: null }
    const err = await adapter.hideComment!({ ...call, comment, hidden: true }).catch((e) => e)
    expect(err).toBeInstanceOf(NetworkFailure)
    expect(err.kind).toBe('rejected')
    expect(err.message).toMatch(/conversations you authored/)
  })

  it('a 429 carries the wait the network asked for', async () => {
    const { fake, adapter, call } = await setup()
    const post = fake.addTweet('my post', at(300))
    fake.fault('GET', '/2/tweets/search/recent', { kind: 'rate-limit', retryAfterSec: 900 })
    const input = {
      ...call,
      post: { platformPostId: post.id, publishedAt: NOW, permalink: null },
      since: null,
      cursor: null,
    }
    const err = await adapter.listComments!(input).catch((e) => e)
    expect(err).toBeInstanceOf(NetworkFailure)
    expect(err).toMatchObject({ kind: 'rate_limited', retryAfterSec: 900 })
  })

  it('a comment deleted on the network is gone for reply, hide, like and delete', async () => {
    const { fake, adapter, call } = await setup()
    const post = fake.addTweet('my post', at(300))
    const reply = fake.addOthers(STRANGER, 'soon deleted', at(10), post.id)
    fake.tweets.splice(fake.tweets.indexOf(reply), 1)
    fake.deleted.add(reply.id)
    const comment = { externalId: reply.id, postExternalId: post.id, parentExternalId: null }
    await expect(adapter.replyToComment!({ ...call, comment, text: 'hi', idempotencyKey: 'k' })).rejects.toBeInstanceOf(
      CommentGone,
    )
    await expect(adapter.hideComment!({ ...call, comment, hidden: true })).rejects.toBeInstanceOf(CommentGone)
    await expect(adapter.likeComment!({ ...call, comment })).rejects.toBeInstanceOf(CommentGone)
    await expect(adapter.deleteComment!({ ...call, comment })).rejects.toBeInstanceOf(CommentGone)
  })
})
