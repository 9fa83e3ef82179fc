import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { accounts, targets } from '../../src/db/schema'
import type { PublishInput } from '../../src/networks/adapter'
import { connectAccount } from '../../src/services/accounts/connection'
import { claimTarget } from '../../src/services/publishing/claim'
import { sweepTargets } from '../../src/services/publishing/sweep'
import { startChatFake, type ChatFake } from '../fakes/chat'
import { jpeg, paint } from '../support/media'
import { runDue } from '../support/engine'
import { fixedClock, realAccount, storedMedia } from '../support/fixtures'
import { createTestApp, type TestApp } from '../support/test-app'

const CHANNEL = '700000000000000007'
const GUILD = '900000000000000001'
const botCreds = (over: Record<string, unknown> = {}) => ({ botToken: 'bot-secret', channelId: CHANNEL, ...over })

async function setup() {
  const fake = await startChatFake()
  const clock = fixedClock('2026-11-21T10:00:00Z')
  const t = await createTestApp({
    clock,
    networks: { origins: { CHAT_NET_API_URL: fake.url } },
    publishing: {
      backoffBaseSec: 10,
      maxAttempts: 3,
      leaseSec: 60,
      sweepGraceSec: 30,
      random: () => 0.5,
    },
  })
  const bot = await realAccount(t, 'CHAT_NET', 'BOT_TOKEN', botCreds())
  const hook = await realAccount(t, 'CHAT_NET', 'WEBHOOK', { webhookUrl: fake.webhookUrl })
  return { fake, clock, t, bot, hook }
}

const createPost = async (t: TestApp, body: Record<string, unknown>) => {
  const res = await t.call('POST', '/v1/posts', { body: { type: 'IMAGE', mediaIds: [], action: 'now', ...body } })
  expect(res.status).toBe(200)
  return res.json()
}
const getPost = async (t: TestApp, id: string) => (await t.call('GET', `/v1/posts/${id}`)).json()
const byId = (fake: ChatFake, id: string) => fake.state.messages.find((m) => m.id === id)!

describe('CHAT_NET adapter', () => {
  it('verifies a webhook by reading it, and a bot by its identity and channel', async () => {
    const { fake, t } = await setup()
    const connect = (connection: 'WEBHOOK' | 'BOT_TOKEN', credentials: Record<string, unknown>) =>
      connectAccount(t.deps, { workspaceId: t.workspaceId, platform: 'CHAT_NET', connection, credentials })
    const hook = await connect('WEBHOOK', { webhookUrl: fake.webhookUrl })
    expect(hook.username).toBe('Announcements hook')
    const [row] = await t.deps.db.select().from(accounts).where(eq(accounts.id, hook.id))
    expect(row!.externalId).toBe('123')
    const bot = await connect('BOT_TOKEN', botCreds())
    expect(bot.username).toBe('announcements')
    expect((await t.deps.db.select().from(accounts).where(eq(accounts.id, bot.id)))[0]!.externalId).toBe(CHANNEL)
    expect(fake.calls('GET', '/api/v10/users/@me')[0]!.headers).toMatchObject({
      authorization: 'Bot bot-secret',
      'user-agent': expect.stringMatching(/^DiscordBot \(\S+, [\d.]+\)$/),
    })
    await expect(connect('WEBHOOK', { webhookUrl: fake.webhookUrl.replace(/tok$/, 'forged') })).rejects.toThrow(
      /webhook token is not valid.*Invalid Webhook Token/,
    )
    await expect(connect('BOT_TOKEN', botCreds({ botToken: 'nope' }))).rejects.toThrow(/Unauthorized/)
    fake.state.hidden.add(CHANNEL)
    await expect(connect('BOT_TOKEN', botCreds())).rejects.toThrow(/cannot see this channel/)
    fake.state.webhook.deleted = true
    await expect(connect('WEBHOOK', { webhookUrl: fake.webhookUrl })).rejects.toThrow(/webhook was deleted/)
  })

  it('posts through a webhook: image with alt text as multipart, mentions that ping nobody, parts as following messages', async () => {
    const { fake, t, hook } = await setup()
    const bytes = await jpeg(paint(40, 30, (x, y) => [x * 6, y * 8, 90]))
    const mediaId = await storedMedia(t, { bytes, mimeType: 'image/jpeg', altText: 'Sunrise over the bay' })
    const caption = 'Hello @everyone and @here <@&123456> — **exactly** as written'
    const p = await createPost(t, {
      caption,
      accountIds: [hook.id],
      mediaIds: [mediaId],
      threadParts: ['Part two', 'Part three'],
    })
    expect(await runDue(t, t.publishQueue)).toEqual(['published'])
    const [head, two, three] = fake.state.messages
    expect(head).toMatchObject({
      via: 'webhook',
      content: caption,
      pinged: false,
      allowed_mentions: { parse: [] },
      message_reference: null,
    })
    expect(head!.attachments).toHaveLength(1)
    expect(head!.attachments[0]).toMatchObject({
      description: 'Sunrise over the bay',
      content_type: 'image/jpeg',
      filename: `${mediaId}.jpg`,
    })
    expect(Buffer.compare(head!.attachments[0]!.bytes, Buffer.from(bytes))).toBe(0)
    expect([two!.content, three!.content]).toEqual(['Part two', 'Part three'])
    expect([two!.message_reference, three!.message_reference]).toEqual([null, null])
    const sends = fake.calls('POST', /^\/api\/webhooks\//)
    expect(sends.every((r) => r.query.get('wait') === 'true' && !r.headers.authorization)).toBe(true)
    expect(sends[0]!.headers['content-type']).toMatch(/^multipart\/form-data/)
    const after = await getPost(t, p.id)
    expect(after.targets[0]).toMatchObject({
      status: 'PUBLISHED',
      platformPostId: head!.id,
      permalink: `https://discord.com/channels/${GUILD}/${CHANNEL}/${head!.id}`,
    })
  })

  it('posts through a bot as a reply chain, each message with its own nonce enforced', async () => {
    const { fake, t, bot } = await setup()
    const p = await createPost(t, {
      caption: 'Thread head',
      accountIds: [bot.id],
      threadParts: ['Reply one', 'Reply two'],
    })
    expect(await runDue(t, t.publishQueue)).toEqual(['published'])
    const [head, one, two] = fake.state.messages
    expect(one!.message_reference).toEqual({ message_id: head!.id })
    expect(two!.message_reference).toEqual({ message_id: one!.id })
    const nonces = fake.state.messages.map((m) => m.nonce)
    expect(new Set(nonces).size).toBe(3)
    for (const n of nonces) expect(n!.length).toBeLessThanOrEqual(25)
    expect(
      fake.calls('POST', `/api/v10/channels/${CHANNEL}/messages`).every((r) => r.json().enforce_nonce === true),
    ).toBe(true)
    expect((await getPost(t, p.id)).targets[0].permalink).toBe(
      `https://discord.com/channels/${GUILD}/${CHANNEL}/${head!.id}`,
    )
  })

  it('resumes a thread after a failure mid-way without sending a part twice', async () => {
    const { fake, clock, t, bot } = await setup()
    await createPost(t, { caption: 'Head', accountIds: [bot.id], threadParts: ['One', 'Two', 'Three'] })
    // The head and the first part go out; the second part meets an outage.
    fake.failNext(/^POST \/api\/v10\/channels\/\d+\/messages$/, fake.error(503, 0, 'upstream connect error'), 2)
    expect(await runDue(t, t.publishQueue)).toEqual(['retrying'])
    expect(fake.state.messages.map((m) => m.content)).toEqual(['Head', 'One'])
    clock.set('2026-11-21T10:05:00Z')
    expect(await runDue(t, t.publishQueue)).toEqual(['published'])
    expect(fake.state.messages.map((m) => m.content)).toEqual(['Head', 'One', 'Two', 'Three'])
    expect(byId(fake, fake.state.messages[2]!.message_reference!.message_id).content).toBe('One')
    expect(fake.calls('POST', `/api/v10/channels/${CHANNEL}/messages`)).toHaveLength(5)
  })

  it('never sends a message twice when its answer was lost: the nonce returns the one made', async () => {
    const { fake, clock, t, bot } = await setup()
    fake.state.loseNextAnswer = true
    const p = await createPost(t, { caption: 'Once only', accountIds: [bot.id] })
    expect(await runDue(t, t.publishQueue)).toEqual(['retrying'])
    clock.set('2026-11-21T10:05:00Z')
    expect(await runDue(t, t.publishQueue)).toEqual(['published'])
    expect(fake.state.messages).toHaveLength(1)
    expect((await getPost(t, p.id)).targets[0].platformPostId).toBe(fake.state.messages[0]!.id)
  })

  it('refuses a file over 10 MiB with words, before anything is uploaded', async () => {
    const { fake, t } = await setup()
    const adapter = t.deps.networks.adapterFor('CHAT_NET', 'BOT_TOKEN')!
    const input: PublishInput = {
      idempotencyKey: 'tgt_big',
      accountId: 'acc',
      connection: 'BOT_TOKEN',
      credentials: botCreds(),
      progress: {},
      saveProgress: async () => {},
      attempt: 1,
      fetch,
      baseUrl: fake.url,
      now: new Date('2026-11-21T10:00:00Z'),
      content: {
        platform: 'CHAT_NET',
        type: 'IMAGE',
        text: 'Big',
        threadParts: [],
        firstComment: null,
        replyToMicropostId: null,
        quoteMicropostId: null,
        videoNetOptions: null,
        audio: null,
        pinboardBoardId: null,
        pinTitle: null,
        linkUrl: null,
        title: null,
        destinationId: null,
        targetOptions: {},
        media: [
          {
            id: 'media_big',
            type: 'VIDEO',
            url: 'http://127.0.0.1:9/never',
            mimeType: 'video/mp4',
            sizeBytes: 11 * 1024 * 1024,
            width: 1280,
            height: 720,
            durationSec: 10,
            altText: null,
          },
        ],
      },
    }
    expect(await adapter.publish(input)).toMatchObject({
      status: 'failed',
      kind: 'rejected',
      message: expect.stringMatching(/11\.0 MiB.*up to 10 MiB/),
    })
    expect(fake.requests).toHaveLength(0)
  })

  it('waits as long as a 429 asks, and classifies revoked tokens, deleted webhooks, permissions and outages', async () => {
    const { fake, clock, t, bot, hook } = await setup()
    fake.failNext(/^POST \/api\/v10\/channels\//, fake.rateLimit(42.5))
    const limited = await createPost(t, { caption: 'Slow down', accountIds: [bot.id] })
    expect(await runDue(t, t.publishQueue)).toEqual(['retrying'])
    const [row] = await t.deps.db.select().from(targets).where(eq(targets.id, limited.targets[0].id))
    expect(row!.dueAt!.toISOString()).toBe('2026-11-21T10:00:43.000Z')
    expect(row!.error).toMatchObject({ code: 'rate_limited', message: 'CHAT_NET: You are being rate limited.' })
    fake.failNext(/^POST \/api\/v10\/channels\//, fake.error(500, 0, '500: Internal Server Error'))
    clock.set('2026-11-21T10:01:00Z')
    expect(await runDue(t, t.publishQueue)).toEqual(['retrying'])
    clock.set('2026-11-21T10:05:00Z')
    expect(await runDue(t, t.publishQueue)).toEqual(['published'])

    fake.state.forbidden.add(CHANNEL)
    const denied = await createPost(t, { caption: 'Denied', accountIds: [bot.id] })
    expect(await runDue(t, t.publishQueue)).toEqual(['failed'])
    expect((await getPost(t, denied.id)).targets[0].error).toMatchObject({
      code: 'rejected',
      message: expect.stringMatching(/lacks a permission.*Send Messages/),
    })
    fake.state.forbidden.clear()

    fake.state.webhook.deleted = true
    const gone = await createPost(t, { caption: 'Gone', accountIds: [hook.id] })
    expect(await runDue(t, t.publishQueue)).toEqual(['failed'])
    expect((await getPost(t, gone.id)).targets[0].error).toMatchObject({
      code: 'auth_expired',
      message: expect.stringMatching(/webhook was deleted: reconnect the account with a new webhook URL/),
    })
    expect((await t.deps.db.select().from(accounts).where(eq(accounts.id, hook.id)))[0]!.status).toBe('EXPIRED')

    fake.state.botToken = 'reset-in-portal'
    const revoked = await createPost(t, { caption: 'Revoked', accountIds: [bot.id] })
    expect(await runDue(t, t.publishQueue)).toEqual(['failed'])
    expect((await getPost(t, revoked.id)).targets[0].error).toMatchObject({
      code: 'auth_expired',
      message: expect.stringMatching(/^token expired: reconnect the account/),
    })
    expect(fake.state.messages.map((m) => m.content)).toEqual(['Slow down'])
  })

  it('confirms a lost bot publish from the channel, publishes once when absent, and leaves a webhook one to the user', async () => {
    const { fake, clock, t, bot, hook } = await setup()
    const lose = async (caption: string, accountId: string) => {
      const p = await createPost(t, { caption, accountIds: [accountId] })
      const [d] = t.publishQueue.takeDue(new Date(8.64e15))
      await claimTarget(t.deps.db, d!.targetId, d!.version, clock.now(), 60)
      return p
    }
    const found = await lose('Made it', bot.id)
    fake.state.messages.push({
      id: '1399999999999999999',
      channel_id: CHANNEL,
      guild_id: GUILD,
      via: 'bot',
      author: fake.state.bot,
      content: 'Made it',
      nonce: 'x',
      timestamp: new Date().toISOString(),
      attachments: [],
      message_reference: null,
      allowed_mentions: null,
      pinged: false,
    })
    clock.set('2026-11-21T10:02:00Z')
    expect(await sweepTargets(t.deps, { workspaceId: t.workspaceId })).toMatchObject({ confirmed: 1 })
    expect((await getPost(t, found.id)).targets[0]).toMatchObject({
      status: 'PUBLISHED',
      platformPostId: '1399999999999999999',
    })

    const absent = await lose('Never made', bot.id)
    clock.set('2026-11-21T10:04:00Z')
    expect(await sweepTargets(t.deps, { workspaceId: t.workspaceId })).toMatchObject({ confirmed: 1 })
    await runDue(t, t.publishQueue)
    expect((await getPost(t, absent.id)).status).toBe('PUBLISHED')
    expect(fake.state.messages.filter((m) => m.content === 'Never made')).toHaveLength(1)

    const unknown = await lose('Via webhook', hook.id)
    clock.set('2026-11-21T10:06:00Z')
    expect(await sweepTargets(t.deps, { workspaceId: t.workspaceId })).toMatchObject({ unconfirmed: 1 })
    expect((await getPost(t, unknown.id)).targets[0].error).toMatchObject({ code: 'unconfirmed' })
    expect(fake.state.messages.filter((m) => m.content === 'Via webhook')).toHaveLength(0)
  })

  it('deletes through the webhook and through the bot, and reports no insights', async () => {
    const { fake, t, bot, hook } = await setup()
    await createPost(t, { caption: 'By hook', accountIds: [hook.id] })
    await createPost(t, { caption: 'By bot', accountIds: [bot.id] })
    await runDue(t, t.publishQueue)
    const [viaHook, viaBot] = [
      fake.state.messages.find((m) => m.via === 'webhook')!,
      fake.state.messages.find((m) => m.via === 'bot')!,
    ]
    const hookAdapter = t.deps.networks.adapterFor('CHAT_NET', 'WEBHOOK')!
    expect(hookAdapter.fetchInsights).toBeUndefined()
    await hookAdapter.deletePost!({
      connection: 'WEBHOOK',
      credentials: { webhookUrl: fake.webhookUrl },
      platformPostId: viaHook.id,
      fetch,
      baseUrl: fake.webhookUrl,
      now: t.deps.clock.now(),
    })
    await hookAdapter.deletePost!({
      connection: 'BOT_TOKEN',
      credentials: botCreds(),
      platformPostId: viaBot.id,
      fetch,
      baseUrl: fake.url,
      now: t.deps.clock.now(),
    })
    expect(fake.calls('DELETE', `/api/webhooks/123/tok/messages/${viaHook.id}`)).toHaveLength(1)
    expect(fake.calls('DELETE', `/api/v10/channels/${CHANNEL}/messages/${viaBot.id}`)).toHaveLength(1)
    expect(fake.state.messages).toHaveLength(0)
    // Deleting again is not an error: the message is already gone.
    await hookAdapter.deletePost!({
      connection: 'BOT_TOKEN',
      credentials: botCreds(),
      platformPostId: viaBot.id,
      fetch,
      baseUrl: fake.url,
      now: t.deps.clock.now(),
    })
  })
})
