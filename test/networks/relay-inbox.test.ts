import { finalizeEvent, generateSecretKey, getPublicKey } from 'nostr-tools/pure'
import { bytesToHex } from 'nostr-tools/utils'
import { afterEach, describe, expect, it } from 'vitest'
import { createRelayAdapter } from '../../src/networks/adapters/relay'
import { NetworkFailure } from '../../src/networks/http'
import { CommentGone } from '../../src/networks/inbox-adapter'
import { createRelaySockets } from '../../src/networks/sockets'
import { nodeOpenSocket } from '../../src/runtime/node-socket'
import { startRelayFake, type RelayFake } from '../fakes/relay'

const NOW = new Date('2026-11-21T10:00:00.000Z')
const sec = (minutesAgo: number) => Math.floor(NOW.getTime() / 1000) - minutesAgo * 60
const relays: RelayFake[] = []
afterEach(async () => {
  await Promise.all(relays.splice(0).map((r) => r.close()))
})

async function setup() {
  const relay = await startRelayFake()
  relays.push(relay)
  const key = generateSecretKey()
  const pubkey = getPublicKey(key)
  const other = generateSecretKey()
  const adapter = createRelayAdapter({
    clients: {},
    origins: {} as never,
    sockets: createRelaySockets(nodeOpenSocket, { allowPrivate: true }),
  })
  const credentials = { privateKey: bytesToHex(key), pubkey, writeRelays: [relay.url] }
  const call = { accountId: 'acc_1', connection: 'PRIVATE_KEY', credentials, fetch, baseUrl: relay.url, now: NOW }
  const note = (by: Uint8Array, content: string, at: number, tags: string[][] = []) => {
    const e = finalizeEvent({ kind: 1, created_at: at, content, tags }, by)
    relay.events.push(e)
    return e
  }
  return { relay, adapter, call, pubkey, key, other, otherPub: getPublicKey(other), note }
}

describe('relay inbox', () => {
  it("lists the account's notes without its replies, paged by until", async () => {
    const { adapter, call, key, note } = await setup()
    const heads = Array.from({ length: 105 }, (_, i) => note(key, `note ${i}`, sec(500 - i)))
    note(key, 'a reply of mine', sec(1), [['e', heads[0]!.id, '', 'root']])
    const since = new Date(NOW.getTime() - 30 * 86400_000)
    const first = await adapter.listPosts!({ ...call, cursor: null, since })
    expect(first.posts).toHaveLength(99)
    expect(first.posts[0]).toMatchObject({ text: 'note 104', metrics: { likes: null, views: null } })
    expect(first.posts[0]!.permalink).toMatch(/^nostr:nevent1/)
    const second = await adapter.listPosts!({ ...call, cursor: first.nextCursor, since })
    expect(second.posts.map((p) => p.text)).toEqual(['note 5', 'note 4', 'note 3', 'note 2', 'note 1', 'note 0'])
    expect(second.nextCursor).toBeNull()
  })

  it('lists replies by #e with their parents from NIP-10 markers', async () => {
    const { adapter, call, key, other, otherPub, pubkey, note } = await setup()
    const head = note(key, 'my note', sec(300))
    const r1 = note(other, 'nice', sec(100), [
      ['e', head.id, '', 'root'],
      ['p', pubkey],
    ])
    const r2 = note(key, 'thanks', sec(90), [
      ['e', head.id, '', 'root'],
      ['e', r1.id, '', 'reply'],
      ['p', otherPub],
    ])
    const page = await adapter.listComments!({
      ...call,
      post: { platformPostId: head.id, publishedAt: NOW, permalink: null },
      cursor: null,
      since: null,
    })
    expect(page.comments.map((c) => c.externalId)).toEqual([r2.id, r1.id])
    expect(page.comments[0]).toMatchObject({ parentExternalId: r1.id, postExternalId: head.id, fromAccount: true })
    expect(page.comments[1]).toMatchObject({
      parentExternalId: null,
      fromAccount: false,
      author: { externalId: otherPub },
    })
    const later = await adapter.listComments!({
      ...call,
      post: { platformPostId: head.id, publishedAt: NOW, permalink: null },
      cursor: null,
      since: new Date(sec(95) * 1000),
    })
    expect(later.comments.map((c) => c.externalId)).toEqual([r2.id])
  })

  it('lists mentions by #p', async () => {
    const { adapter, call, other, pubkey, note } = await setup()
    const m = note(other, 'hello nostr:npub…', sec(5), [['p', pubkey]])
    const page = await adapter.listMentions!({ ...call, cursor: null, since: null })
    expect(page.comments.map((c) => c.externalId)).toEqual([m.id])
  })

  it('replies with root and reply tags, reacts with kind 7, deletes its own reply', async () => {
    const { relay, adapter, call, key, other, otherPub, pubkey, note } = await setup()
    const head = note(key, 'my note', sec(300))
    const r1 = note(other, 'nice', sec(100), [
      ['e', head.id, '', 'root'],
      ['p', pubkey],
    ])
    const comment = { externalId: r1.id, postExternalId: head.id, parentExternalId: null }
    const sent = await adapter.replyToComment!({ ...call, comment, text: 'thank you', idempotencyKey: 'k' })
    const reply = relay.events.find((e) => e.id === sent.externalId)!
    expect(reply).toMatchObject({ kind: 1, content: 'thank you', pubkey })
    expect(reply.tags).toEqual([
      ['e', head.id, relay.url, 'root'],
      ['e', r1.id, relay.url, 'reply', otherPub],
      ['p', otherPub],
      ['p', pubkey],
    ])
    await adapter.likeComment!({ ...call, comment })
    const like = relay.events.find((e) => e.kind === 7)!
    expect(like).toMatchObject({
      content: '+',
      tags: [
        ['e', r1.id, relay.url],
        ['p', otherPub],
        ['k', '1'],
      ],
    })
    await adapter.deleteComment!({ ...call, comment: { ...comment, externalId: sent.externalId } })
    expect(relay.events.some((e) => e.id === sent.externalId)).toBe(false)
    const err = await adapter.deleteComment!({ ...call, comment }).catch((e) => e)
    expect(err).toBeInstanceOf(NetworkFailure)
    expect(err.message).toMatch(/own replies/)
  })

  it('a relay that says rate-limited is a rate limit', async () => {
    const { relay, adapter, call } = await setup()
    relay.rateLimit('rate-limited: slow down')
    const err = await adapter.listMentions!({ ...call, cursor: null, since: null }).catch((e) => e)
    expect(err).toBeInstanceOf(NetworkFailure)
    expect(err).toMatchObject({ kind: 'rate_limited', retryAfterSec: 60 })
    expect(err.message).toMatch(/slow down/)
  })

  it('a note no relay has is gone', async () => {
    const { adapter, call } = await setup()
    const comment = { externalId: 'f'.repeat(64), postExternalId: null, parentExternalId: null }
    await expect(adapter.replyToComment!({ ...call, comment, text: 'hi', idempotencyKey: 'k' })).rejects.toBeInstanceOf(
      CommentGone,
    )
    await expect(adapter.likeComment!({ ...call, comment })).rejects.toBeInstanceOf(CommentGone)
  })
})
