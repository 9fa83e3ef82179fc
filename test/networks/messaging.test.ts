import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { accounts, targets } from '../../src/db/schema'
import { connectAccount } from '../../src/services/accounts/connection'
import { claimTarget } from '../../src/services/publishing/claim'
import { sweepTargets } from '../../src/services/publishing/sweep'
import { startMessagingFake, type MessagingFakeOptions } from '../fakes/messaging'
import { runDue } from '../support/engine'
import { fixedClock, realAccount, storedMedia } from '../support/fixtures'
import { createTestApp, type TestApp } from '../support/test-app'

const T0 = '2026-11-21T10:00:00.000Z'

async function setup(fakeOptions: MessagingFakeOptions = {}) {
  const clock = fixedClock(T0)
  const fake = await startMessagingFake({ now: clock.now, ...fakeOptions })
  const t = await createTestApp({
    clock,
    networks: { origins: { MESSAGING_NET_API_URL: fake.url } },
    publishing: {
      backoffBaseSec: 30,
      maxAttempts: 5,
      leaseSec: 60,
      sweepGraceSec: 30,
      random: () => 0.5,
    },
  })
  const account = await realAccount(
    t,
    'MESSAGING_NET',
    'BOT_TOKEN',
    {
      botToken: fake.token,
      chatId: String(fake.chat.id),
      ...(fake.chat.username ? { chatUsername: fake.chat.username } : {}),
    },
    String(fake.chat.id),
  )
  return { t, clock, fake, account }
}

const publish = async (t: TestApp, body: Record<string, unknown>) => {
  const res = await t.call('POST', '/v1/posts', { body: { type: 'IMAGE', mediaIds: [], action: 'now', ...body } })
  expect(res.status).toBe(200)
  return res.json()
}
const getPost = (t: TestApp, id: string) => t.call('GET', `/v1/posts/${id}`).then((r) => r.json())
const bytes = (n: number, seed = 1) => Uint8Array.from({ length: n }, (_, i) => (i * 17 + seed) % 253)

describe('MESSAGING_NET adapter', () => {
  it('verifies a bot token: names the chat, and refuses a wrong token or a bot that cannot post', async () => {
    const { t, fake } = await setup()
    const input = { workspaceId: t.workspaceId, platform: 'MESSAGING_NET' as const, connection: 'BOT_TOKEN' as const }
    const added = await connectAccount(t.deps, { ...input, credentials: { botToken: fake.token, chatId: '@acmenews' } })
    expect(added).toMatchObject({ username: 'acmenews', status: 'ACTIVE' })
    const [row] = await t.deps.db.select().from(accounts).where(eq(accounts.id, added.id))
    expect(row!.externalId).toBe('-1001234567890')
    expect(await t.deps.cipher.decrypt(row!.credentials, added.id)).toMatchObject({
      chatId: '-1001234567890',
      chatUsername: 'acmenews',
    })
    const wrong = connectAccount(t.deps, { ...input, credentials: { botToken: '123456:WRONG', chatId: '@acmenews' } })
    await expect(wrong).rejects.toThrow(/did not confirm the credentials: MESSAGING_NET: Unauthorized/)
    await expect(wrong).rejects.not.toThrow(/123456:WRONG/)
    fake.setMember({ status: 'member' })
    await expect(
      connectAccount(t.deps, { ...input, credentials: { botToken: fake.token, chatId: '@acmenews' } }),
    ).rejects.toThrow(/@acme_bot is not an administrator of the channel/)
  })

  it('lets a restricted member of a group post only while is_member and can_send_messages are true', async () => {
    const { t, fake } = await setup({
      chat: { id: -1009876543210, type: 'supergroup', title: 'Private group' },
      member: { status: 'restricted', is_member: true, can_send_messages: true },
    })
    const input = {
      workspaceId: t.workspaceId,
      platform: 'MESSAGING_NET' as const,
      connection: 'BOT_TOKEN' as const,
      credentials: { botToken: fake.token, chatId: '-1009876543210' },
    }
    expect(await connectAccount(t.deps, input)).toMatchObject({ username: 'Private group', status: 'ACTIVE' })
    fake.setMember({ status: 'restricted', is_member: true, can_send_messages: false })
    await expect(connectAccount(t.deps, input)).rejects.toThrow(
      /@acme_bot is not a member of the chat allowed to send messages/,
    )
    fake.setMember({ status: 'restricted', is_member: false, can_send_messages: true })
    await expect(connectAccount(t.deps, input)).rejects.toThrow(/not a member of the chat allowed to send messages/)
  })

  it('publishes a message the network queued (message_id 0): linked to the chat, parts not replying to it, with a warning', async () => {
    const { t, fake, account } = await setup()
    fake.scheduleNext()
    const p = await publish(t, { accountIds: [account.id], caption: 'Queued', threadParts: ['After it'] })
    expect(await runDue(t, t.publishQueue)).toEqual(['published'])
    expect(fake.messages.map((m) => [m.text, m.replyTo])).toEqual([
      ['Queued', null],
      ['After it', null],
    ])
    const target = (await getPost(t, p.id)).targets[0]
    expect(target).toMatchObject({ status: 'PUBLISHED', platformPostId: '0', permalink: 'https://t.me/acmenews' })
    const [row] = await t.deps.db.select().from(targets).where(eq(targets.id, target.id))
    expect(row!.warnings).toEqual([expect.stringMatching(/queued the message.*cannot be deleted from here/)])
    const adapter = t.deps.networks.adapterFor('MESSAGING_NET', 'BOT_TOKEN')!
    await expect(
      adapter.deletePost!({
        connection: 'BOT_TOKEN',
        credentials: { botToken: fake.token, chatId: String(fake.chat.id) },
        fetch,
        baseUrl: fake.url,
        now: t.deps.clock.now(),
        platformPostId: '0',
      }),
    ).rejects.toMatchObject({ kind: 'rejected', message: expect.stringMatching(/delete it in the chat/) })
    expect(fake.calls('POST', /\/deleteMessage$/)).toHaveLength(0)
  })

  it('sends text exactly as written, without a parse mode, and a thread as replies', async () => {
    const { t, fake, account } = await setup()
    const p = await publish(t, {
      accountIds: [account.id],
      caption: '*not bold* <b>not html</b> _x_',
      threadParts: ['part [2](x)', 'part 3'],
    })
    expect(await runDue(t, t.publishQueue)).toEqual(['published'])
    const [head, p2, p3] = fake.messages
    expect(fake.messages.map((m) => [m.text, m.parseMode, m.replyTo])).toEqual([
      ['*not bold* <b>not html</b> _x_', null, null],
      ['part [2](x)', null, head!.message_id],
      ['part 3', null, p2!.message_id],
    ])
    expect(p3).toBeDefined()
    expect((await getPost(t, p.id)).targets[0]).toMatchObject({
      status: 'PUBLISHED',
      platformPostId: String(head!.message_id),
      permalink: `https://t.me/acmenews/${head!.message_id}`,
    })
  })

  it('uploads one photo or video with its caption, and 2-10 items as an album captioned on the first', async () => {
    const { t, fake, account } = await setup({
      chat: { id: -1009876543210, type: 'supergroup', title: 'Private group' },
      member: { status: 'member' },
    })
    const photo = await storedMedia(t, { bytes: bytes(5000, 1), mimeType: 'image/jpeg' })
    const video = await storedMedia(t, {
      bytes: bytes(9000, 2),
      mimeType: 'video/mp4',
      durationSec: 5,
      width: 1280,
      height: 720,
    })
    const single = await publish(t, { accountIds: [account.id], mediaIds: [photo], caption: 'One photo' })
    await publish(t, { accountIds: [account.id], mediaIds: [video], caption: 'One video' })
    const album = await publish(t, { accountIds: [account.id], mediaIds: [photo, video, photo], caption: 'Album' })
    expect(await runDue(t, t.publishQueue)).toEqual(['published', 'published', 'published'])
    expect(fake.calls('POST', /\/sendPhoto$/)).toHaveLength(1)
    expect(fake.calls('POST', /\/sendVideo$/)).toHaveLength(1)
    expect(fake.calls('POST', /\/sendMediaGroup$/)).toHaveLength(1)
    const [m1, m2, ...items] = fake.messages
    expect(m1).toMatchObject({ kind: 'photo', caption: 'One photo' })
    expect(Buffer.compare(m1!.bytes!, Buffer.from(bytes(5000, 1)))).toBe(0)
    expect(m2).toMatchObject({ kind: 'video', caption: 'One video' })
    expect(Buffer.compare(m2!.bytes!, Buffer.from(bytes(9000, 2)))).toBe(0)
    expect(items.map((m) => [m.kind, m.caption])).toEqual([
      ['photo', 'Album'],
      ['video', null],
      ['photo', null],
    ])
    expect((await getPost(t, single.id)).targets[0].permalink).toBe(`https://t.me/c/9876543210/${m1!.message_id}`)
    const albumTarget = (await getPost(t, album.id)).targets[0]
    expect(albumTarget.platformPostId).toBe(String(items[0]!.message_id))
    const [row] = await t.deps.db.select().from(targets).where(eq(targets.id, albumTarget.id))
    expect(row!.progress).toMatchObject({ messageIds: items.map((m) => String(m.message_id)) })
  })

  it('classifies failures: retry_after on 429, 5xx retried, a bot removed from the channel rejected with what to do, a revoked token expires the account, a migrated group names its new id', async () => {
    const { t, clock, fake, account } = await setup()
    fake.failOn('sendMessage', fake.fail(429, 'Too Many Requests: retry after 42', { retry_after: 42 }))
    fake.failOn('sendMessage', { status: 502, body: '<html>Bad Gateway</html>' })
    const p = await publish(t, { accountIds: [account.id], caption: 'Hello' })
    expect(await runDue(t, t.publishQueue)).toEqual(['retrying'])
    const [waiting] = await t.deps.db.select().from(targets).where(eq(targets.id, p.targets[0].id))
    expect(waiting!.dueAt!.toISOString()).toBe('2026-11-21T10:00:42.000Z')
    expect(waiting!.error).toMatchObject({
      code: 'rate_limited',
      message: 'MESSAGING_NET: Too Many Requests: retry after 42',
    })
    clock.set('2026-11-21T10:00:42Z')
    expect(await runDue(t, t.publishQueue)).toEqual(['retrying'])
    const [afterBadGateway] = await t.deps.db.select().from(targets).where(eq(targets.id, p.targets[0].id))
    expect(afterBadGateway!.error).toMatchObject({ code: 'transient' })
    expect(JSON.stringify(afterBadGateway)).not.toContain(fake.token)

    fake.failOn('sendMessage', fake.fail(403, 'Forbidden: bot was kicked from the channel chat'))
    const kicked = await publish(t, { accountIds: [account.id], caption: 'Kicked' })
    fake.failOn(
      'sendMessage',
      fake.fail(400, 'Bad Request: group chat was upgraded to a supergroup chat', { migrate_to_chat_id: -1005555 }),
    )
    const migrated = await publish(t, { accountIds: [account.id], caption: 'Migrated' })
    fake.failOn('sendMessage', fake.fail(401, 'Unauthorized'))
    const revoked = await publish(t, { accountIds: [account.id], caption: 'Revoked' })
    clock.set('2026-11-21T10:10:00Z')
    await runDue(t, t.publishQueue)
    expect((await getPost(t, kicked.id)).targets[0].error).toMatchObject({
      code: 'rejected',
      message:
        'MESSAGING_NET: Forbidden: bot was kicked from the channel chat: add the bot to the chat (as an administrator allowed to post, for a channel), then retry.',
      retryable: true,
    })
    expect((await getPost(t, migrated.id)).targets[0].error).toMatchObject({
      code: 'rejected',
      retryable: false,
      message: expect.stringMatching(/chat id -1005555: reconnect the account with that chatId/),
    })
    expect((await getPost(t, revoked.id)).targets[0].error).toMatchObject({
      code: 'auth_expired',
      message: expect.stringMatching(/reconnect the account.*Unauthorized/),
    })
    const [acc] = await t.deps.db.select().from(accounts).where(eq(accounts.id, account.id))
    expect(acc!.status).toBe('EXPIRED')
    expect(acc!.statusMessage).not.toContain(fake.token)
  })

  it('resumes a thread after a refused part without sending any part twice', async () => {
    const { t, clock, fake, account } = await setup()
    fake.failOn('sendMessage', fake.fail(429, 'Too Many Requests: retry after 5', { retry_after: 5 }), { skip: 1 })
    await publish(t, { accountIds: [account.id], caption: 'One', threadParts: ['Two', 'Three'] })
    expect(await runDue(t, t.publishQueue)).toEqual(['retrying'])
    expect(fake.messages.map((m) => m.text)).toEqual(['One'])
    clock.set('2026-11-21T10:05:00Z')
    expect(await runDue(t, t.publishQueue)).toEqual(['published'])
    expect(fake.messages.map((m) => [m.text, m.replyTo])).toEqual([
      ['One', null],
      ['Two', fake.messages[0]!.message_id],
      ['Three', fake.messages[1]!.message_id],
    ])
  })

  it('never resends a message whose answer was lost: the user is told to check the chat, and a manual retry sends it', async () => {
    const { t, clock, fake, account } = await setup()
    fake.failOn('sendMessage', { status: 502, body: 'Bad Gateway' }, { afterSend: true })
    const p = await publish(t, { accountIds: [account.id], caption: 'Maybe sent' })
    expect(await runDue(t, t.publishQueue)).toEqual(['retrying'])
    clock.set('2026-11-21T10:05:00Z')
    expect(await runDue(t, t.publishQueue)).toEqual(['failed'])
    expect(fake.messages).toHaveLength(1)
    expect((await getPost(t, p.id)).targets[0].error).toMatchObject({
      code: 'unconfirmed',
      message: expect.stringMatching(/check the chat, and use retry only if it is not there/),
      retryable: true,
    })
    expect((await t.call('POST', `/v1/posts/${p.id}/retry`)).status).toBe(200)
    expect(await runDue(t, t.publishQueue)).toEqual(['published'])
    expect(fake.messages.map((m) => m.text)).toEqual(['Maybe sent', 'Maybe sent'])
  })

  it('settles a lost publish: absent when nothing was on its way, unconfirmed when a send was in flight', async () => {
    const { t, clock, fake, account } = await setup()
    const p = await publish(t, { accountIds: [account.id], caption: 'Never sent' })
    const [d] = t.publishQueue.takeDue(new Date(8.64e15))
    await claimTarget(t.deps.db, d!.targetId, d!.version, clock.now(), 60)
    clock.set('2026-11-21T10:02:00Z')
    expect(await sweepTargets(t.deps, { workspaceId: t.workspaceId })).toMatchObject({ confirmed: 1 })
    expect(await runDue(t, t.publishQueue)).toEqual(['published'])
    expect((await getPost(t, p.id)).status).toBe('PUBLISHED')

    const q = await publish(t, { accountIds: [account.id], caption: 'In flight' })
    const [d2] = t.publishQueue.takeDue(new Date(8.64e15))
    await claimTarget(t.deps.db, d2!.targetId, d2!.version, clock.now(), 60)
    await t.deps.db
      .update(targets)
      .set({ progress: { sending: { step: -1, at: clock.now().toISOString() } } })
      .where(eq(targets.id, d2!.targetId))
    clock.set('2026-11-21T10:04:00Z')
    expect(await sweepTargets(t.deps, { workspaceId: t.workspaceId })).toMatchObject({ unconfirmed: 1 })
    expect((await getPost(t, q.id)).targets[0].error).toMatchObject({ code: 'unconfirmed' })
    expect(fake.messages.map((m) => m.text)).toEqual(['Never sent'])
  })

  it('reads the member count as followers with no per-message figures, and deletes a message unless it is older than 48 hours', async () => {
    const { t, clock, fake, account } = await setup()
    await publish(t, { accountIds: [account.id], caption: 'First' })
    await publish(t, { accountIds: [account.id], caption: 'Second' })
    await runDue(t, t.publishQueue)
    const adapter = t.deps.networks.adapterFor('MESSAGING_NET', 'BOT_TOKEN')!
    const base = {
      connection: 'BOT_TOKEN',
      credentials: { botToken: fake.token, chatId: String(fake.chat.id) },
      fetch,
      baseUrl: fake.url,
    }
    const [first, second] = fake.messages
    expect(
      await adapter.fetchInsights!({
        ...base,
        accountId: account.id,
        now: clock.now(),
        posts: [{ targetId: 't1', platformPostId: String(first!.message_id), publishedAt: clock.now() }],
      }),
    ).toEqual({
      followers: 321,
      posts: [{ targetId: 't1', likes: null, comments: null, shares: null, views: null, saves: null }],
    })
    await adapter.deletePost!({ ...base, now: clock.now(), platformPostId: String(first!.message_id) })
    expect(fake.messages.map((m) => m.text)).toEqual(['Second'])
    // Already deleted in the chat: the network says it is not found, which is what a delete wants.
    await adapter.deletePost!({ ...base, now: clock.now(), platformPostId: String(first!.message_id) })
    clock.set('2026-11-23T10:00:01Z')
    await expect(
      adapter.deletePost!({ ...base, now: clock.now(), platformPostId: String(second!.message_id) }),
    ).rejects.toMatchObject({
      kind: 'rejected',
      message: "MESSAGING_NET: Bad Request: message can't be deleted for everyone",
    })
  })
})
