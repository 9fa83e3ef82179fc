import { describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { accounts as accountsTable, targets } from '../../../src/db/schema'
import { claimTarget } from '../../../src/services/publishing/claim'
import { startChatFake } from '../../fakes/chat'
import { startFederatedFake } from '../../fakes/federated'
import { startMessagingFake } from '../../fakes/messaging'
import { startMicroblogFake } from '../../fakes/microblog'
import { startTextThreadFake } from '../../fakes/text-thread'
import { runDue } from '../../support/engine'
import { fixedClock, realAccount, storedMedia } from '../../support/fixtures'
import { serveApp } from '../../support/serve-app'
import { createTestApp, type TestApp } from '../../support/test-app'

const T0 = '2026-11-21T10:00:00.000Z'
const MICROBLOG_CLIENT = { clientId: 'client-1', clientSecret: 'secret-1' }

/** The app over real HTTP on loopback, and one fake per network it talks to. */
async function setup() {
  const clock = fixedClock(T0)
  const microblog = await startMicroblogFake({
    now: clock.now,
    client: { id: MICROBLOG_CLIENT.clientId, secret: MICROBLOG_CLIENT.clientSecret },
  })
  const messaging = await startMessagingFake({ now: clock.now })
  const federated = await startFederatedFake({ now: clock.now })
  const chat = await startChatFake()
  const thread = await startTextThreadFake({ now: clock.now })
  const t = await createTestApp({
    clock,
    networks: {
      origins: {
        MICROBLOG_NET_API_URL: microblog.url,
        MESSAGING_NET_API_URL: messaging.url,
        CHAT_NET_API_URL: chat.url,
        TEXTTHREAD_NET_API_URL: thread.url,
      },
      clients: { MICROBLOG_NET: MICROBLOG_CLIENT },
    },
    publishing: { backoffBaseSec: 30, maxAttempts: 5, leaseSec: 60, sweepGraceSec: 30, random: () => 0.5 },
  })
  const accounts = {
    microblog: await realAccount(
      t,
      'MICROBLOG_NET',
      'DIRECT_LOGIN',
      {
        accessToken: 'access-1',
        refreshToken: 'refresh-1',
        expiresAt: '2026-11-21T12:00:00.000Z',
        userId: microblog.userId,
        username: microblog.username,
      },
      microblog.userId,
    ),
    messaging: await realAccount(
      t,
      'MESSAGING_NET',
      'BOT_TOKEN',
      { botToken: messaging.token, chatId: String(messaging.chat.id), chatUsername: messaging.chat.username },
      String(messaging.chat.id),
    ),
    federated: await realAccount(
      t,
      'FEDERATED_NET',
      'DIRECT_LOGIN',
      { instanceUrl: federated.url, accessToken: federated.token },
      '109876',
    ),
    chat: await realAccount(t, 'CHAT_NET', 'WEBHOOK', { webhookUrl: chat.webhookUrl }),
    thread: await realAccount(t, 'TEXTTHREAD_NET', 'DIRECT_LOGIN', {
      accessToken: 'th-token',
      expiresAt: '2027-06-01T00:00:00Z',
      userId: thread.userId,
    }),
  }
  const http = await serveApp(t)
  return { t, clock, http, accounts, fakes: { microblog, messaging, federated, chat, thread } }
}

async function publishNow(t: TestApp, body: Record<string, unknown>) {
  const res = await t.call('POST', '/v1/posts', { body: { type: 'IMAGE', mediaIds: [], action: 'now', ...body } })
  expect(res.status).toBe(200)
  const post = await res.json()
  return post.id as string
}

const targetOf = (answer: any, platform: string) => answer.targets.find((x: any) => x.platform === platform)
const image = (t: TestApp, seed: number) =>
  storedMedia(t, { bytes: Uint8Array.from({ length: 4000 }, (_, i) => (i * 31 + seed) % 251), mimeType: 'image/jpeg' })

describe('DELETE /v1/posts/{id}?fromNetworks=true', () => {
  it('deletes each network post with its thread parts and album items, seen at the fakes, then our record', async () => {
    const { t, http, accounts, fakes } = await setup()
    const threadPost = await publishNow(t, {
      accountIds: [accounts.microblog.id, accounts.federated.id, accounts.chat.id],
      caption: 'Head',
      threadParts: ['Part two', 'Part three'],
    })
    const albumPost = await publishNow(t, {
      accountIds: [accounts.messaging.id],
      mediaIds: [await image(t, 1), await image(t, 2)],
      caption: 'Album',
      threadParts: ['After the album'],
    })
    expect(await runDue(t, t.publishQueue)).toEqual(['published', 'published', 'published', 'published'])
    expect(fakes.microblog.tweets).toHaveLength(3)
    expect(fakes.federated.state.statuses).toHaveLength(3)
    expect(fakes.chat.state.messages).toHaveLength(3)
    expect(fakes.messaging.messages).toHaveLength(3)
    const tweetIds = fakes.microblog.tweets.map((x) => x.id)

    const first = await http('DELETE', `/v1/posts/${threadPost}?fromNetworks=true`)
    expect(first.status).toBe(200)
    expect(first.body).toMatchObject({ id: threadPost, deleted: true })
    expect(first.body.targets.map((x: any) => [x.platform, x.outcome, x.deletedIds.length, x.remainingIds])).toEqual([
      ['MICROBLOG_NET', 'deleted', 3, []],
      ['FEDERATED_NET', 'deleted', 3, []],
      ['CHAT_NET', 'deleted', 3, []],
    ])
    expect(targetOf(first.body, 'MICROBLOG_NET')).toMatchObject({
      accountId: accounts.microblog.id,
      message: 'Deleted from MICROBLOG_NET: the post and 2 more (thread parts or album items).',
      permalink: null,
      error: null,
    })
    // The last part goes first and the head last, so a failure half-way leaves the head.
    expect(targetOf(first.body, 'MICROBLOG_NET').deletedIds).toEqual([...tweetIds].reverse())
    expect(fakes.microblog.tweets).toHaveLength(0)
    expect(fakes.microblog.calls('DELETE', /^\/2\/tweets\//).map((r) => r.path)).toEqual(
      [...tweetIds].reverse().map((id) => `/2/tweets/${id}`),
    )
    expect(fakes.federated.state.statuses).toHaveLength(0)
    expect(fakes.federated.server.calls('DELETE', /^\/api\/v1\/statuses\//)).toHaveLength(3)
    expect(fakes.chat.state.messages).toHaveLength(0)
    expect((await http('GET', `/v1/posts/${threadPost}`)).status).toBe(404)

    const album = await http('DELETE', `/v1/posts/${albumPost}?fromNetworks=true`)
    expect(album.body).toMatchObject({ deleted: true, targets: [{ platform: 'MESSAGING_NET', outcome: 'deleted' }] })
    expect(album.body.targets[0].deletedIds).toHaveLength(3)
    expect(fakes.messaging.messages).toHaveLength(0)
    expect(fakes.messaging.calls('POST', /\/deleteMessage$/)).toHaveLength(3)
  })

  it('keeps the post on a network without a delete endpoint and says so, in words and with its permalink', async () => {
    const { t, http, accounts, fakes } = await setup()
    const id = await publishNow(t, { accountIds: [accounts.thread.id, accounts.microblog.id], caption: 'Both' })
    expect(await runDue(t, t.publishQueue)).toEqual(['published', 'published'])
    const live = fakes.thread.state.posts.filter((x) => !x.deleted)
    expect(live).toHaveLength(1)

    const res = await http('DELETE', `/v1/posts/${id}?fromNetworks=true`)
    expect(res.status).toBe(200)
    expect(res.body.deleted).toBe(true)
    const thread = targetOf(res.body, 'TEXTTHREAD_NET')
    expect(thread).toMatchObject({ outcome: 'not_supported', deletedIds: [], error: null })
    expect(thread.permalink).toMatch(/^https:\/\//)
    expect(thread.remainingIds).toHaveLength(1)
    expect(thread.message).toMatch(/TEXTTHREAD_NET has no way to delete a post through its API: it stays published/)
    expect(targetOf(res.body, 'MICROBLOG_NET').outcome).toBe('deleted')
    expect(fakes.thread.calls('DELETE', /.*/)).toHaveLength(0)
    expect(fakes.thread.state.posts.filter((x) => !x.deleted)).toHaveLength(1)
  })

  it('never deletes an unconfirmed or in-flight target blindly, and keeps the post for them', async () => {
    const { t, clock, http, accounts, fakes } = await setup()
    fakes.messaging.failOn('sendMessage', { status: 502, body: 'Bad Gateway' }, { afterSend: true })
    const id = await publishNow(t, {
      accountIds: [accounts.messaging.id, accounts.microblog.id],
      caption: 'Maybe sent',
    })
    expect(await runDue(t, t.publishQueue)).toEqual(['retrying', 'published'])
    clock.set('2026-11-21T10:05:00Z')
    expect(await runDue(t, t.publishQueue)).toEqual(['failed'])
    expect(fakes.messaging.messages).toHaveLength(1)

    const res = await http('DELETE', `/v1/posts/${id}?fromNetworks=true`)
    expect(res.status).toBe(200)
    expect(res.body.deleted).toBe(false)
    expect(targetOf(res.body, 'MESSAGING_NET')).toMatchObject({ outcome: 'unconfirmed', deletedIds: [], error: null })
    expect(targetOf(res.body, 'MESSAGING_NET').message).toMatch(/we cannot tell whether it reached MESSAGING_NET/)
    expect(targetOf(res.body, 'MICROBLOG_NET').outcome).toBe('deleted')
    expect(fakes.messaging.calls('POST', /\/deleteMessage$/)).toHaveLength(0)
    expect(fakes.messaging.messages).toHaveLength(1)
    // Our record keeps only what still needs the user: the unconfirmed target.
    const kept = (await http('GET', `/v1/posts/${id}`)).body
    expect(kept.targets.map((x: any) => [x.platform, x.status])).toEqual([['MESSAGING_NET', 'FAILED']])
    expect(kept.status).toBe('FAILED')

    // The user checked the chat: a plain delete drops our record, and still touches no network.
    expect((await http('DELETE', `/v1/posts/${id}`)).body).toEqual({ id, deleted: true })
    expect(fakes.messaging.messages).toHaveLength(1)

    // A target a delivery is publishing right now is left alone too.
    const busy = await publishNow(t, { accountIds: [accounts.microblog.id], caption: 'In flight' })
    const [delivery] = t.publishQueue.takeDue(new Date(8.64e15))
    await claimTarget(t.deps.db, delivery!.targetId, delivery!.version, clock.now(), 60)
    const inFlight = await http('DELETE', `/v1/posts/${busy}?fromNetworks=true`)
    expect(inFlight.body).toMatchObject({ deleted: false, targets: [{ outcome: 'in_progress', deletedIds: [] }] })
    expect((await http('GET', `/v1/posts/${busy}`)).body.targets[0].status).toBe('PUBLISHING')
  })

  it('answers one network failure per target without losing the others, and a retry does only what is left', async () => {
    const { t, http, accounts, fakes } = await setup()
    const id = await publishNow(t, {
      accountIds: [accounts.microblog.id, accounts.federated.id],
      caption: 'Head',
      threadParts: ['Two', 'Three'],
    })
    expect(await runDue(t, t.publishQueue)).toEqual(['published', 'published'])
    const statusIds = fakes.federated.state.statuses.map((s) => s.id)
    // The instance deletes the last part, then fails on the next one.
    fakes.federated.server.fault(
      'DELETE',
      /^\/api\/v1\/statuses\//,
      { kind: 'status', status: 503, json: { error: 'Service temporarily unavailable' } },
      { skip: 1 },
    )

    const first = await http('DELETE', `/v1/posts/${id}?fromNetworks=true`)
    expect(first.status).toBe(200)
    expect(first.body.deleted).toBe(false)
    expect(targetOf(first.body, 'MICROBLOG_NET').outcome).toBe('deleted')
    const failed = targetOf(first.body, 'FEDERATED_NET')
    expect(failed).toMatchObject({
      outcome: 'failed',
      deletedIds: [statusIds[2]],
      remainingIds: [statusIds[1], statusIds[0]],
      error: { code: 'transient', retryable: true },
    })
    expect(failed.error.message).toMatch(/503|unavailable/i)
    expect(failed.message).toMatch(/^Not deleted from FEDERATED_NET \(https?:\/\/.+\): .*delete again to retry/)
    expect(fakes.microblog.tweets).toHaveLength(0)
    expect(fakes.federated.state.statuses.map((s) => s.id)).toEqual([statusIds[0], statusIds[1]])
    const kept = (await http('GET', `/v1/posts/${id}`)).body
    expect(kept.targets.map((x: any) => [x.platform, x.status])).toEqual([['FEDERATED_NET', 'PUBLISHED']])
    expect(kept.status).toBe('PUBLISHED')

    const before = fakes.federated.server.calls('DELETE', /^\/api\/v1\/statuses\//).length
    const again = await http('DELETE', `/v1/posts/${id}?fromNetworks=true`)
    expect(again.body).toMatchObject({
      id,
      deleted: true,
      targets: [{ platform: 'FEDERATED_NET', outcome: 'deleted' }],
    })
    expect(again.body.targets[0].deletedIds).toEqual([statusIds[2], statusIds[1], statusIds[0]])
    const retried = fakes.federated.server.calls('DELETE', /^\/api\/v1\/statuses\//).slice(before)
    expect(retried.map((r) => r.path)).toEqual([statusIds[1], statusIds[0]].map((s) => `/api/v1/statuses/${s}`))
    expect(fakes.federated.state.statuses).toHaveLength(0)
    expect((await http('GET', `/v1/posts/${id}`)).status).toBe(404)
  })

  it('says what to do when a network refuses: a message past its delete window, an account whose token expired', async () => {
    const { t, clock, http, accounts, fakes } = await setup()
    const id = await publishNow(t, { accountIds: [accounts.messaging.id, accounts.microblog.id], caption: 'Old news' })
    expect(await runDue(t, t.publishQueue)).toEqual(['published', 'published'])
    clock.set('2026-11-23T11:00:00Z')
    await t.deps.db
      .update(accountsTable)
      .set({ status: 'EXPIRED', statusMessage: 'token expired: reconnect the account' })
      .where(eq(accountsTable.id, accounts.microblog.id))

    const res = await http('DELETE', `/v1/posts/${id}?fromNetworks=true`)
    expect(res.body.deleted).toBe(false)
    expect(targetOf(res.body, 'MESSAGING_NET')).toMatchObject({
      outcome: 'failed',
      error: { code: 'rejected', retryable: false, message: expect.stringMatching(/can't be deleted for everyone/) },
    })
    expect(targetOf(res.body, 'MICROBLOG_NET')).toMatchObject({
      outcome: 'failed',
      error: {
        code: 'auth_expired',
        retryable: true,
        message: 'token expired: reconnect the account, then delete again',
      },
    })
    expect(targetOf(res.body, 'MESSAGING_NET').message).toMatch(
      /^Not deleted from MESSAGING_NET \(https:\/\/t\.me\/.+\): .+ remove it on the network yourself, then delete this post without fromNetworks\.$/,
    )
    expect(fakes.messaging.messages).toHaveLength(1)
    expect(fakes.microblog.calls('DELETE', /.*/)).toHaveLength(0)
    expect((await http('GET', `/v1/posts/${id}`)).body.targets).toHaveLength(2)
  })

  it('changes nothing without the flag (or with false), answers 404 for another workspace and 400 for a bad value', async () => {
    const { t, http, accounts, fakes } = await setup()
    const a = await publishNow(t, { accountIds: [accounts.microblog.id], caption: 'Stays', threadParts: ['Too'] })
    const b = await publishNow(t, { accountIds: [accounts.microblog.id], caption: 'Stays as well' })
    expect(await runDue(t, t.publishQueue)).toEqual(['published', 'published'])
    expect(fakes.microblog.tweets).toHaveLength(3)

    const bad = await http('DELETE', `/v1/posts/${a}?fromNetworks=yes`)
    expect(bad.status).toBe(400)
    expect(bad.body.error).toMatchObject({ code: 'invalid_request' })
    expect(JSON.stringify(bad.body.error)).toMatch(/fromNetworks/)

    const other = await createTestApp()
    const foreign = await http('DELETE', `/v1/posts/${a}?fromNetworks=true`, other.token)
    expect(foreign.status).toBe(404)
    expect(foreign.body.error.code).toBe('not_found')
    expect((await http('GET', `/v1/posts/${a}`)).status).toBe(200)

    expect(await http('DELETE', `/v1/posts/${a}`)).toEqual({ status: 200, body: { id: a, deleted: true } })
    expect(await http('DELETE', `/v1/posts/${b}?fromNetworks=false`)).toEqual({
      status: 200,
      body: { id: b, deleted: true },
    })
    expect(fakes.microblog.calls('DELETE', /.*/)).toHaveLength(0)
    expect(fakes.microblog.tweets).toHaveLength(3)
    expect(await t.deps.db.select().from(targets).where(eq(targets.postId, a))).toEqual([])
  })
})
