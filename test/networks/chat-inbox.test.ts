import { describe, expect, it } from 'vitest'
import type { AccountCallInput } from '../../src/networks/adapter'
import { createChatAdapter } from '../../src/networks/adapters/chat'
import { NetworkFailure } from '../../src/networks/http'
import { CommentGone } from '../../src/networks/inbox-adapter'
import { startChatFake, type ChatFake } from '../fakes/chat'

const CHANNEL = '700000000000000007'
const adapter = createChatAdapter({ clients: {}, origins: {} as never })
const ada = { id: '1001', username: 'ada', global_name: 'Ada L.' }
const bob = { id: '1002', username: 'bob' }

async function setup() {
  const fake = await startChatFake()
  const base: AccountCallInput = {
    accountId: 'acc_1',
    connection: 'BOT_TOKEN',
    credentials: { botToken: 'bot-secret', channelId: CHANNEL, guildId: '900000000000000001' },
    fetch,
    baseUrl: fake.url,
    now: new Date(),
  }
  return { fake, base }
}

/** A message the bot sent, through the same API the publisher uses. */
async function botSays(fake: ChatFake, content: string): Promise<string> {
  const res = await fetch(`${fake.url}/api/v10/channels/${CHANNEL}/messages`, {
    method: 'POST',
    headers: {
      authorization: 'Bot bot-secret',
      'user-agent': 'DiscordBot (https://x.invalid, 1.0)',
      'content-type': 'application/json',
    },
    body: JSON.stringify({ content }),
  })
  return ((await res.json()) as { id: string }).id
}

const post = (id: string) => ({ platformPostId: id, publishedAt: new Date(), permalink: null })

describe('CHAT_NET inbox', () => {
  it('lists the bot’s own messages as posts, newest first, paged with before', async () => {
    const { fake, base } = await setup()
    const ids: string[] = []
    for (let i = 0; i < 102; i++) ids.push(await botSays(fake, `post ${i}`))
    fake.say(ada, 'not ours')
    const since = new Date(Date.now() - 3600_000)
    const first = await adapter.listPosts!({ ...base, cursor: null, since })
    expect(first.posts).toHaveLength(99)
    expect(first.posts[0]).toMatchObject({
      platformPostId: ids[101],
      text: 'post 101',
      permalink: `https://discord.com/channels/900000000000000001/${CHANNEL}/${ids[101]}`,
      metrics: { likes: 0, comments: null, views: null, reach: null },
    })
    expect(first.nextCursor).not.toBeNull()
    const second = await adapter.listPosts!({ ...base, cursor: first.nextCursor, since })
    expect(second.posts.map((p) => p.text)).toEqual(['post 2', 'post 1', 'post 0'])
    expect(second.nextCursor).toBeNull()
    expect(fake.calls('GET', `/api/v10/channels/${CHANNEL}/messages`).at(-1)!.query.get('before')).toBe(
      first.nextCursor,
    )
  })

  it('reads replies and replies to replies as a thread, paged forward, and keeps the thread across pages', async () => {
    const { fake, base } = await setup()
    const head = await botSays(fake, 'Launch day')
    const c1 = fake.say(ada, 'Congrats!', head)
    fake.say(bob, 'unrelated chatter')
    for (let i = 0; i < 99; i++) fake.say(bob, `noise ${i}`)
    const c2 = fake.say(bob, 'Thanks Ada', c1.id)
    const first = await adapter.listComments!({ ...base, post: post(head), cursor: null, since: null })
    expect(first.comments).toEqual([
      expect.objectContaining({
        externalId: c1.id,
        parentExternalId: null,
        postExternalId: head,
        text: 'Congrats!',
        author: expect.objectContaining({ name: 'Ada L.', handle: 'ada', externalId: '1001' }),
        fromAccount: false,
        hidden: null,
      }),
    ])
    expect(first.nextCursor).not.toBeNull()
    const second = await adapter.listComments!({ ...base, post: post(head), cursor: first.nextCursor, since: null })
    expect(second.comments.map((c) => [c.externalId, c.parentExternalId])).toEqual([[c2.id, c1.id]])
    expect(second.nextCursor).toBeNull()
  })

  it('replies with message_reference and a nonce, so a retried reply is the same message', async () => {
    const { fake, base } = await setup()
    const head = await botSays(fake, 'Launch day')
    const c1 = fake.say(ada, 'Congrats!', head)
    const input = { ...base, comment: { externalId: c1.id, postExternalId: head, parentExternalId: null } }
    const sent = await adapter.replyToComment!({ ...input, text: 'Thank you @everyone', idempotencyKey: 'rpl_1' })
    const again = await adapter.replyToComment!({ ...input, text: 'Thank you @everyone', idempotencyKey: 'rpl_1' })
    expect(again.externalId).toBe(sent.externalId)
    const body = fake.calls('POST', `/api/v10/channels/${CHANNEL}/messages`).at(-1)!.json()
    expect(body).toMatchObject({
      content: 'Thank you @everyone',
      message_reference: { message_id: c1.id, fail_if_not_exists: true },
      allowed_mentions: { parse: [] },
      enforce_nonce: true,
    })
    const reply = fake.state.messages.find((m) => m.id === sent.externalId)!
    expect(reply).toMatchObject({ message_reference: { message_id: c1.id }, pinged: false })
    expect(sent.permalink).toContain(sent.externalId)
  })

  it('likes with the bot’s reaction and deletes a message; a message gone is CommentGone', async () => {
    const { fake, base } = await setup()
    const head = await botSays(fake, 'Launch day')
    const c1 = fake.say(ada, 'Spam', head)
    const ref = { externalId: c1.id, postExternalId: head, parentExternalId: null }
    await adapter.likeComment!({ ...base, comment: ref })
    expect(fake.calls('PUT', /\/reactions\//)[0]!.path).toBe(
      `/api/v10/channels/${CHANNEL}/messages/${c1.id}/reactions/${encodeURIComponent('👍')}/@me`,
    )
    expect([...c1.reactions!.keys()]).toEqual(['👍'])
    await adapter.deleteComment!({ ...base, comment: ref })
    expect(fake.state.deleted).toContain(c1.id)
    await expect(adapter.deleteComment!({ ...base, comment: ref })).rejects.toBeInstanceOf(CommentGone)
    await expect(adapter.likeComment!({ ...base, comment: ref })).rejects.toBeInstanceOf(CommentGone)
    await expect(
      adapter.replyToComment!({ ...base, comment: ref, text: 'late', idempotencyKey: 'rpl_2' }),
    ).rejects.toBeInstanceOf(CommentGone)
  })

  it('a 429 is rate_limited with the wait from retry_after; a webhook account cannot read', async () => {
    const { fake, base } = await setup()
    const head = await botSays(fake, 'Launch day')
    fake.failNext(/^GET \/api\/v10\/channels\/\d+\/messages$/, fake.rateLimit(7.2))
    const err = await adapter.listComments!({ ...base, post: post(head), cursor: null, since: null }).catch((e) => e)
    expect(err).toBeInstanceOf(NetworkFailure)
    expect(err).toMatchObject({ kind: 'rate_limited', retryAfterSec: 8 })
    const hook = { ...base, connection: 'WEBHOOK', credentials: { webhookUrl: fake.webhookUrl } }
    await expect(adapter.listPosts!({ ...hook, cursor: null, since: new Date(0) })).rejects.toMatchObject({
      kind: 'rejected',
      message: expect.stringMatching(/webhook cannot read/),
    })
  })
})
