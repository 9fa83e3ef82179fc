import { describe, expect, it } from 'vitest'
import { createOpenProtocolAdapter } from '../../src/networks/adapters/open-protocol'
import { createSession, recordKeyFor } from '../../src/networks/adapters/open-protocol/xrpc'
import { NetworkFailure } from '../../src/networks/http'
import { CommentGone } from '../../src/networks/inbox-adapter'
import { startOpenProtocolFake } from '../fakes/open-protocol'

const NOW = new Date('2026-11-21T10:00:00.000Z')
const at = (minutesAgo: number) => new Date(NOW.getTime() - minutesAgo * 60_000).toISOString()
const BOB = { did: 'did:plc:bob00000000000000000000000', handle: 'bob.test', displayName: 'Bob' }

async function setup() {
  const fake = await startOpenProtocolFake({ now: () => NOW })
  const adapter = createOpenProtocolAdapter({
    clients: {},
    origins: { OPENPROTOCOL_NET_VIDEO_URL: fake.videoUrl } as never,
  })
  const base = { identifier: fake.handle, appPassword: fake.appPassword }
  const session = await createSession(fetch, fake.url, base, NOW)
  const call = {
    accountId: 'acc_1',
    connection: 'APP_PASSWORD',
    credentials: { ...base, session },
    fetch,
    baseUrl: fake.url,
    now: NOW,
  }
  /** A post of the account, made through createRecord as publishing does. */
  const post = async (text: string, createdAt: string) => {
    const rkey = await recordKeyFor(`post-${text}`, 0)
    const res = await fetch(`${fake.url}/xrpc/com.atproto.repo.createRecord`, {
      method: 'POST',
      headers: { authorization: `Bearer ${session.accessJwt}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        repo: fake.did,
        collection: 'app.bsky.feed.post',
        rkey,
        record: { $type: 'app.bsky.feed.post', text, createdAt },
      }),
    })
    return (await res.json()) as { uri: string; cid: string }
  }
  return { fake, adapter, call, post }
}

describe('open-protocol inbox', () => {
  it('lists the account posts from its author feed, paged by cursor', async () => {
    const { adapter, call, post } = await setup()
    for (let i = 0; i < 103; i++) await post(`post ${i}`, at(200 - i))
    const since = new Date(at(60 * 24 * 30))
    const first = await adapter.listPosts!({ ...call, cursor: null, since })
    expect(first.posts).toHaveLength(100)
    expect(first.posts[0]).toMatchObject({
      text: 'post 102',
      metrics: { likes: 0, comments: 0, shares: 0, views: null },
    })
    expect(first.posts[0]!.permalink).toMatch(/^https:\/\/bsky\.app\/profile\/alice\.test\/post\//)
    const second = await adapter.listPosts!({ ...call, cursor: first.nextCursor, since })
    expect(second.posts.map((p) => p.text)).toEqual(['post 2', 'post 1', 'post 0'])
    expect(second.nextCursor).toBeNull()
  })

  it('lists the reply tree of a post with hidden replies from its threadgate', async () => {
    const { fake, adapter, call, post } = await setup()
    const root = await post('my post', at(300))
    const r1 = fake.addOther(BOB, 'nice', at(100), root.uri)
    const r2 = fake.addOther(BOB, 'me again', at(90), r1.uri)
    const input = {
      ...call,
      post: { platformPostId: root.uri, publishedAt: NOW, permalink: null },
      cursor: null,
      since: null,
    }
    const page = await adapter.listComments!(input)
    expect(page.comments.map((c) => c.externalId)).toEqual([r1.uri, r2.uri])
    expect(page.comments[1]).toMatchObject({
      parentExternalId: r1.uri,
      postExternalId: root.uri,
      hidden: false,
      fromAccount: false,
      author: { handle: 'bob.test', name: 'Bob' },
    })
    await adapter.hideComment!({
      ...call,
      comment: { externalId: r2.uri, postExternalId: root.uri, parentExternalId: r1.uri },
      hidden: true,
    })
    const gate = fake.gates.get(root.uri.split('/').at(-1)!)!
    expect(gate.value).toMatchObject({ $type: 'app.bsky.feed.threadgate', post: root.uri, hiddenReplies: [r2.uri] })
    expect(gate.value.allow).toBeUndefined()
    expect((await adapter.listComments!(input)).comments[1]!.hidden).toBe(true)
    await adapter.hideComment!({
      ...call,
      comment: { externalId: r2.uri, postExternalId: root.uri, parentExternalId: r1.uri },
      hidden: false,
    })
    expect(fake.gates.get(root.uri.split('/').at(-1)!)!.value.hiddenReplies).toEqual([])
  })

  it('lists mentions from the notifications with reasons=mention', async () => {
    const { fake, adapter, call } = await setup()
    const m = fake.addOther(BOB, 'hi @alice.test', at(3))
    const page = await adapter.listMentions!({ ...call, cursor: null, since: null })
    expect(page.comments.map((c) => c.externalId)).toEqual([m.uri])
    expect(fake.pds.calls('GET', '/xrpc/app.bsky.notification.listNotifications')[0]!.query.getAll('reasons')).toEqual([
      'mention',
    ])
  })

  it('replies with root and parent refs under a key from the idempotency key, likes, deletes its reply', async () => {
    const { fake, adapter, call, post } = await setup()
    const root = await post('my post', at(300))
    const r1 = fake.addOther(BOB, 'nice', at(100), root.uri)
    const comment = { externalId: r1.uri, postExternalId: root.uri, parentExternalId: null }
    const sent = await adapter.replyToComment!({
      ...call,
      comment,
      text: 'thanks https://example.com',
      idempotencyKey: 'rpl_1',
    })
    const body = fake.pds.calls('POST', '/xrpc/com.atproto.repo.createRecord').at(-1)!.json()
    expect(body.record.reply).toEqual({ root: { uri: root.uri, cid: root.cid }, parent: { uri: r1.uri, cid: r1.cid } })
    expect(body.record.facets[0].features[0]).toMatchObject({ uri: 'https://example.com' })
    expect(sent.permalink).toMatch(/^https:\/\/bsky\.app\/profile\/alice\.test\/post\//)
    // Retried with the same key: the same record, never a second reply.
    const again = await adapter.replyToComment!({
      ...call,
      comment,
      text: 'thanks https://example.com',
      idempotencyKey: 'rpl_1',
    })
    expect(again.externalId).toBe(sent.externalId)
    expect(fake.posts().filter((p) => p.value.reply)).toHaveLength(1)
    await adapter.likeComment!({ ...call, comment })
    expect(fake.likes[0]!.value.subject).toEqual({ uri: r1.uri, cid: r1.cid })
    await adapter.deleteComment!({
      ...call,
      comment: { externalId: sent.externalId, postExternalId: root.uri, parentExternalId: r1.uri },
    })
    expect(fake.posts().filter((p) => p.value.reply)).toHaveLength(0)
    const err = await adapter.deleteComment!({ ...call, comment }).catch((e) => e)
    expect(err).toBeInstanceOf(NetworkFailure)
    expect(err.message).toMatch(/own replies/)
  })

  it('a 429 carries the wait the network asked for', async () => {
    const { fake, adapter, call } = await setup()
    fake.pds.fault('GET', '/xrpc/app.bsky.feed.getAuthorFeed', { kind: 'rate-limit', retryAfterSec: 120 })
    const err = await adapter.listPosts!({ ...call, cursor: null, since: NOW }).catch((e) => e)
    expect(err).toMatchObject({ kind: 'rate_limited', retryAfterSec: 120 })
  })

  it('a deleted post is gone', async () => {
    const { fake, adapter, call } = await setup()
    const uri = `at://${BOB.did}/app.bsky.feed.post/3lzzzzzzzzzzz`
    const comment = { externalId: uri, postExternalId: null, parentExternalId: null }
    await expect(adapter.replyToComment!({ ...call, comment, text: 'hi', idempotencyKey: 'k' })).rejects.toBeInstanceOf(
      CommentGone,
    )
    await expect(adapter.likeComment!({ ...call, comment })).rejects.toBeInstanceOf(CommentGone)
    await expect(
      adapter.listComments!({
        ...call,
        post: { platformPostId: uri, publishedAt: NOW, permalink: null },
        cursor: null,
        since: null,
      }),
    ).rejects.toBeInstanceOf(CommentGone)
    expect(fake.likes).toHaveLength(0)
  })
})
