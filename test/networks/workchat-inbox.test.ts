import { describe, expect, it } from 'vitest'
import type { AccountCallInput } from '../../src/networks/adapter'
import { createWorkchatAdapter } from '../../src/networks/adapters/workchat'
import { NetworkFailure } from '../../src/networks/http'
import { CommentGone } from '../../src/networks/inbox-adapter'
import { startWorkchatFake, type WorkchatFake } from '../fakes/workchat'

const adapter = createWorkchatAdapter({ clients: {}, origins: {} as never })
const GENERAL = 'C0GENERAL1'

async function setup() {
  const fake = await startWorkchatFake()
  const base: AccountCallInput = {
    accountId: 'acc_1',
    connection: 'BOT_TOKEN',
    credentials: { botToken: fake.state.accessToken, botUserId: fake.botUser },
    fetch,
    baseUrl: fake.url,
    now: new Date(),
  }
  return { fake, base }
}

const botPost = (fake: WorkchatFake, channel: string, text: string) => fake.say(channel, fake.botUser, text)
const post = (id: string) => ({ platformPostId: id, publishedAt: new Date(), permalink: null })

describe('WORKCHAT_NET inbox', () => {
  it('lists the bot’s messages channel by channel, paged with the history cursor', async () => {
    const { fake, base } = await setup()
    fake.state.pageSizeCap = 2
    for (let i = 0; i < 3; i++) botPost(fake, GENERAL, `general ${i}`)
    fake.say(GENERAL, 'U0HUMAN01', 'hello')
    botPost(fake, 'G0SECRET01', 'leads 0')
    const since = new Date(Date.now() - 3600_000)
    const seen: string[] = []
    let cursor: string | null = null
    let pages = 0
    do {
      const page = await adapter.listPosts!({ ...base, cursor, since })
      seen.push(...page.posts.map((p) => p.text))
      cursor = page.nextCursor
      pages++
    } while (cursor && pages < 10)
    expect(seen).toEqual(['general 2', 'general 1', 'general 0', 'leads 0'])
    expect(fake.calls('GET', '/api/users.conversations')).toHaveLength(1)
    const first = await adapter.listPosts!({ ...base, cursor: null, since })
    expect(first.posts[0]).toMatchObject({
      platformPostId: expect.stringMatching(/^C0GENERAL1\/\d+\.\d{6}$/),
      permalink: expect.stringContaining('/archives/C0GENERAL1/p'),
      metrics: { likes: 0, comments: 0, views: null },
    })
  })

  it('reads a thread as flat replies, paged, and replies with thread_ts', async () => {
    const { fake, base } = await setup()
    fake.state.pageSizeCap = 2
    const head = botPost(fake, GENERAL, 'Launch')
    const r1 = fake.say(GENERAL, 'U0HUMAN01', 'Nice <b>', head.ts)
    fake.say(GENERAL, 'U0HUMAN02', 'Agreed', head.ts)
    const headId = `${GENERAL}/${head.ts}`
    const first = await adapter.listComments!({ ...base, post: post(headId), cursor: null, since: null })
    expect(first.comments).toEqual([
      expect.objectContaining({
        externalId: `${GENERAL}/${r1.ts}`,
        parentExternalId: null,
        postExternalId: headId,
        text: 'Nice <b>',
        fromAccount: false,
      }),
    ])
    const second = await adapter.listComments!({ ...base, post: post(headId), cursor: first.nextCursor, since: null })
    expect(second.comments.map((c) => c.text)).toEqual(['Agreed'])
    expect(second.nextCursor).toBeNull()

    const comment = { externalId: `${GENERAL}/${r1.ts}`, postExternalId: headId, parentExternalId: null }
    const sent = await adapter.replyToComment!({ ...base, comment, text: 'Thanks <3 & more', idempotencyKey: 'k' })
    const body = fake.calls('POST', '/api/chat.postMessage').at(-1)!.json()
    expect(body).toEqual({ channel: GENERAL, thread_ts: head.ts, text: 'Thanks &lt;3 &amp; more' })
    expect(fake.calls('POST', '/api/chat.postMessage').at(-1)!.headers.authorization).toBe(
      `Bearer ${fake.state.accessToken}`,
    )
    expect(sent.externalId).toMatch(/^C0GENERAL1\//)
    expect(fake.replies(GENERAL, head.ts).map((m) => m.text)).toContain('Thanks &lt;3 &amp; more')
  })

  it('likes with reactions.add (twice is fine), deletes its own reply, and a gone message is CommentGone', async () => {
    const { fake, base } = await setup()
    const head = botPost(fake, GENERAL, 'Launch')
    const r1 = fake.say(GENERAL, 'U0HUMAN01', 'Nice', head.ts)
    const ref = (ts: string) => ({
      externalId: `${GENERAL}/${ts}`,
      postExternalId: `${GENERAL}/${head.ts}`,
      parentExternalId: null,
    })
    await adapter.likeComment!({ ...base, comment: ref(r1.ts) })
    await adapter.likeComment!({ ...base, comment: ref(r1.ts) })
    expect(fake.calls('POST', '/api/reactions.add')[0]!.json()).toEqual({
      channel: GENERAL,
      name: 'thumbsup',
      timestamp: r1.ts,
    })
    expect(r1.reactions).toEqual([{ name: 'thumbsup', count: 1, users: [fake.botUser] }])
    await expect(adapter.deleteComment!({ ...base, comment: ref(r1.ts) })).rejects.toMatchObject({
      kind: 'rejected',
      message: expect.stringContaining('cant_delete_message'),
    })
    const mine = fake.say(GENERAL, fake.botUser, 'our reply', head.ts)
    await adapter.deleteComment!({ ...base, comment: ref(mine.ts) })
    await expect(adapter.deleteComment!({ ...base, comment: ref(mine.ts) })).rejects.toBeInstanceOf(CommentGone)
    await expect(adapter.likeComment!({ ...base, comment: ref(mine.ts) })).rejects.toBeInstanceOf(CommentGone)
    fake.state.messages.splice(fake.state.messages.indexOf(head), 1)
    await expect(
      adapter.listComments!({ ...base, post: post(`${GENERAL}/${head.ts}`), cursor: null, since: null }),
    ).rejects.toBeInstanceOf(CommentGone)
  })

  it('a 429 is rate_limited with its Retry-After; a revoked token is auth_expired', async () => {
    const { fake, base } = await setup()
    const head = botPost(fake, GENERAL, 'Launch')
    fake.failNext({ status: 429, headers: { 'retry-after': '42' }, json: { ok: false, error: 'ratelimited' } })
    const err = await adapter.listComments!({
      ...base,
      post: post(`${GENERAL}/${head.ts}`),
      cursor: null,
      since: null,
    }).catch((e) => e)
    expect(err).toBeInstanceOf(NetworkFailure)
    expect(err).toMatchObject({ kind: 'rate_limited', retryAfterSec: 42 })
    fake.revokeToken()
    await expect(adapter.listPosts!({ ...base, cursor: null, since: new Date(0) })).rejects.toMatchObject({
      kind: 'auth_expired',
    })
  })
})
