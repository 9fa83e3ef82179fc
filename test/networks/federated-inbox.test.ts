import { describe, expect, it } from 'vitest'
import { createFederatedAdapter } from '../../src/networks/adapters/federated'
import { NetworkFailure } from '../../src/networks/http'
import { CommentGone } from '../../src/networks/inbox-adapter'
import { startFederatedFake } from '../fakes/federated'

const NOW = new Date('2026-11-21T10:00:00.000Z')
const at = (minutesAgo: number) => new Date(NOW.getTime() - minutesAgo * 60_000).toISOString()
const BOB = {
  id: '555',
  username: 'bob',
  acct: 'bob@other.example',
  display_name: 'Bob <b>',
  avatar: 'https://other.example/bob.png',
}

async function setup() {
  const fake = await startFederatedFake({ now: () => NOW })
  const adapter = createFederatedAdapter({ clients: {}, origins: {} as never })
  const call = {
    accountId: 'acc_1',
    connection: 'DIRECT_LOGIN',
    credentials: { accessToken: fake.token },
    fetch,
    baseUrl: fake.url,
    now: NOW,
  }
  return { fake, adapter, call }
}

describe('federated inbox', () => {
  it('lists the account statuses newest first, with metrics, paged by max_id', async () => {
    const { fake, adapter, call } = await setup()
    for (let i = 0; i < 45; i++) fake.addStatus(`post ${i} & more`, { createdAt: at(100 - i) })
    const since = new Date(at(60 * 24 * 30))
    const first = await adapter.listPosts!({ ...call, cursor: null, since })
    expect(first.posts).toHaveLength(40)
    expect(first.posts[0]).toMatchObject({
      text: 'post 44 & more',
      metrics: { likes: 0, comments: 0, shares: 0, views: null },
    })
    expect(first.posts[0]!.permalink).toMatch(/^https:\/\/fed\.example\/@alice\//)
    const second = await adapter.listPosts!({ ...call, cursor: first.nextCursor, since })
    expect(second.posts.map((p) => p.text)).toEqual([
      'post 4 & more',
      'post 3 & more',
      'post 2 & more',
      'post 1 & more',
      'post 0 & more',
    ])
    expect(second.nextCursor).toBeNull()
    const req = fake.server.calls('GET', /\/statuses$/)[1]!
    expect(req.query.get('max_id')).toBe(first.nextCursor)
    expect(req.query.get('exclude_replies')).toBe('true')
  })

  it('lists the replies of a status as a thread from its context', async () => {
    const { fake, adapter, call } = await setup()
    const post = fake.addStatus('my post', { createdAt: at(300) })
    const r1 = fake.addStatus('<p>nice</p>', { author: BOB, inReplyToId: post.id, createdAt: at(100) })
    const r2 = fake.addStatus('thanks', { inReplyToId: r1.id, createdAt: at(90) })
    const page = await adapter.listComments!({
      ...call,
      post: { platformPostId: post.id, publishedAt: NOW, permalink: null },
      cursor: null,
      since: null,
    })
    expect(page.nextCursor).toBeNull()
    expect(page.comments).toHaveLength(2)
    expect(page.comments.find((c) => c.externalId === r1.id)).toMatchObject({
      parentExternalId: null,
      postExternalId: post.id,
      text: '<p>nice</p>',
      fromAccount: false,
      author: { externalId: '555', name: 'Bob <b>', handle: 'bob@other.example' },
    })
    expect(page.comments.find((c) => c.externalId === r2.id)).toMatchObject({
      parentExternalId: r1.id,
      fromAccount: true,
    })
    const later = await adapter.listComments!({
      ...call,
      post: { platformPostId: post.id, publishedAt: NOW, permalink: null },
      cursor: null,
      since: new Date(at(95)),
    })
    expect(later.comments.map((c) => c.externalId)).toEqual([r2.id])
  })

  it('lists mentions from the notifications', async () => {
    const { fake, adapter, call } = await setup()
    const m = fake.addStatus('hey @alice', { author: BOB, createdAt: at(5) })
    const page = await adapter.listMentions!({ ...call, cursor: null, since: null })
    expect(page.comments.map((c) => c.externalId)).toEqual([m.id])
    expect(fake.server.calls('GET', '/api/v1/notifications')[0]!.query.getAll('types[]')).toEqual(['mention'])
  })

  it('replies with in_reply_to_id and the Idempotency-Key, favourites, deletes its own reply', async () => {
    const { fake, adapter, call } = await setup()
    const post = fake.addStatus('my post', { createdAt: at(300) })
    const r1 = fake.addStatus('nice', { author: BOB, inReplyToId: post.id, createdAt: at(100) })
    const comment = { externalId: r1.id, postExternalId: post.id, parentExternalId: null }
    const sent = await adapter.replyToComment!({
      ...call,
      comment,
      text: '@bob@other.example thanks',
      idempotencyKey: 'rpl_1',
    })
    const req = fake.server.calls('POST', '/api/v1/statuses').at(-1)!
    expect(req.json()).toMatchObject({
      status: '@bob@other.example thanks',
      in_reply_to_id: r1.id,
      visibility: 'public',
    })
    expect(req.headers['idempotency-key']).toBe('rpl_1')
    const again = await adapter.replyToComment!({
      ...call,
      comment,
      text: '@bob@other.example thanks',
      idempotencyKey: 'rpl_1',
    })
    expect(again.externalId).toBe(sent.externalId)
    await adapter.likeComment!({ ...call, comment })
    expect(fake.favourites.has(r1.id)).toBe(true)
    await adapter.deleteComment!({
      ...call,
      comment: { externalId: sent.externalId, postExternalId: post.id, parentExternalId: r1.id },
    })
    expect(fake.state.statuses.some((s) => s.id === sent.externalId)).toBe(false)
    const err = await adapter.deleteComment!({ ...call, comment }).catch((e) => e)
    expect(err).toBeInstanceOf(NetworkFailure)
    expect(err.message).toMatch(/own replies/)
  })

  it('a reply is never more visible than the status it answers', async () => {
    const { fake, adapter, call } = await setup()
    const post = fake.addStatus('my post', { createdAt: at(300) })
    const r1 = fake.addStatus('psst', { author: BOB, inReplyToId: post.id, createdAt: at(100) })
    r1.visibility = 'private'
    const comment = { externalId: r1.id, postExternalId: post.id, parentExternalId: null }
    await adapter.replyToComment!({ ...call, comment, text: 'noted', idempotencyKey: 'rpl_2' })
    expect(fake.server.calls('POST', '/api/v1/statuses').at(-1)!.json().visibility).toBe('private')
  })

  it('a 429 carries the wait the instance asked for', async () => {
    const { fake, adapter, call } = await setup()
    fake.server.fault('GET', '/api/v1/notifications', { kind: 'rate-limit', retryAfterSec: 300 })
    const err = await adapter.listMentions!({ ...call, cursor: null, since: null }).catch((e) => e)
    expect(err).toBeInstanceOf(NetworkFailure)
    expect(err).toMatchObject({ kind: 'rate_limited', retryAfterSec: 300 })
  })

  it('a status deleted meanwhile is gone', async () => {
    const { adapter, call } = await setup()
    const comment = { externalId: '999999', postExternalId: '1', parentExternalId: null }
    await expect(adapter.replyToComment!({ ...call, comment, text: 'hi', idempotencyKey: 'k' })).rejects.toBeInstanceOf(
      CommentGone,
    )
    await expect(adapter.likeComment!({ ...call, comment })).rejects.toBeInstanceOf(CommentGone)
    await expect(
      adapter.listComments!({
        ...call,
        post: { platformPostId: '999999', publishedAt: NOW, permalink: null },
        cursor: null,
        since: null,
      }),
    ).rejects.toBeInstanceOf(CommentGone)
  })
})
