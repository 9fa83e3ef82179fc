import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { accounts, targets } from '../../src/db/schema'
import type { PublishInput } from '../../src/networks/adapter'
import { connectAccount } from '../../src/services/accounts/connection'
import { claimTarget } from '../../src/services/publishing/claim'
import { sweepTargets } from '../../src/services/publishing/sweep'
import { startMicroblogFake, type MicroblogFakeOptions } from '../fakes/microblog'
import { runDue } from '../support/engine'
import { fixedClock, realAccount, storedMedia } from '../support/fixtures'
import { createTestApp, type TestApp } from '../support/test-app'

const T0 = '2026-11-21T10:00:00.000Z'
const CLIENT = { clientId: 'client-1', clientSecret: 'secret-1' }

async function setup(fakeOptions: MicroblogFakeOptions = {}, withClient = true) {
  const clock = fixedClock(T0)
  const fake = await startMicroblogFake({
    now: clock.now,
    client: withClient ? { id: CLIENT.clientId, secret: CLIENT.clientSecret } : undefined,
    ...fakeOptions,
  })
  const t = await createTestApp({
    clock,
    networks: { origins: { MICROBLOG_NET_API_URL: fake.url }, clients: withClient ? { MICROBLOG_NET: CLIENT } : {} },
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
    'MICROBLOG_NET',
    'DIRECT_LOGIN',
    {
      accessToken: 'access-1',
      refreshToken: 'refresh-1',
      expiresAt: '2026-11-21T12:00:00.000Z',
      userId: fake.userId,
      username: fake.username,
    },
    fake.userId,
  )
  return { t, clock, fake, account }
}

const publish = async (t: TestApp, body: Record<string, unknown>) => {
  const res = await t.call('POST', '/v1/posts', { body: { type: 'IMAGE', mediaIds: [], action: 'now', ...body } })
  expect(res.status).toBe(200)
  return res.json()
}
const getPost = (t: TestApp, id: string) => t.call('GET', `/v1/posts/${id}`).then((r) => r.json())
const credentialsOf = async (t: TestApp, id: string) => {
  const [row] = await t.deps.db.select().from(accounts).where(eq(accounts.id, id))
  return { row: row!, credentials: await t.deps.cipher.decrypt(row!.credentials, id) }
}
const bytes = (n: number, seed = 1) => Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed) % 251)

describe('MICROBLOG_NET adapter', () => {
  it('verifies credentials: names the account, and refuses a token of another user or an expired one', async () => {
    const { t, fake } = await setup()
    const input = {
      workspaceId: t.workspaceId,
      platform: 'MICROBLOG_NET' as const,
      connection: 'DIRECT_LOGIN' as const,
    }
    const creds = {
      accessToken: 'access-1',
      refreshToken: 'refresh-1',
      expiresAt: '2026-11-21T12:00:00Z',
      userId: fake.userId,
    }
    const added = await connectAccount(t.deps, { ...input, credentials: creds })
    expect(added).toMatchObject({ username: 'acme', status: 'ACTIVE' })
    expect((await credentialsOf(t, added.id)).row.externalId).toBe(fake.userId)
    await expect(connectAccount(t.deps, { ...input, credentials: { ...creds, userId: '42' } })).rejects.toThrow(
      /belongs to @acme/,
    )
    await expect(connectAccount(t.deps, { ...input, credentials: { ...creds, accessToken: 'wrong' } })).rejects.toThrow(
      /did not confirm the credentials: MICROBLOG_NET: Unauthorized/,
    )
  })

  it('publishes images in chunks and a thread as a reply chain, each part once', async () => {
    const { t, fake, account } = await setup()
    const a = await storedMedia(t, { bytes: bytes(1_500_000, 1), mimeType: 'image/png' })
    const b = await storedMedia(t, { bytes: bytes(2000, 2), mimeType: 'image/jpeg' })
    const created = await publish(t, {
      accountIds: [account.id],
      mediaIds: [a, b],
      caption: 'Launch day & <friends>',
      threadParts: ['second', 'third'],
    })
    expect(await runDue(t, t.publishQueue)).toEqual(['published'])
    const [head, p2, p3] = fake.tweets
    expect(fake.tweets).toHaveLength(3)
    expect(head).toMatchObject({ text: 'Launch day & <friends>', replyTo: null })
    expect(p2).toMatchObject({ text: 'second', replyTo: head!.id, mediaIds: [] })
    expect(p3).toMatchObject({ text: 'third', replyTo: p2!.id })
    const [m1, m2] = head!.mediaIds
    expect(fake.media.get(m1!)!.segments.size).toBe(2)
    expect(fake.media.get(m1!)!.category).toBe('tweet_image')
    expect(Buffer.compare(fake.bytesOf(m1!), Buffer.from(bytes(1_500_000, 1)))).toBe(0)
    expect(Buffer.compare(fake.bytesOf(m2!), Buffer.from(bytes(2000, 2)))).toBe(0)
    const post = await getPost(t, created.id)
    expect(post.targets[0]).toMatchObject({
      status: 'PUBLISHED',
      platformPostId: head!.id,
      permalink: `https://x.com/acme/status/${head!.id}`,
    })
  })

  it('waits for video processing through pending checks, never inside a publish; a failed processing is rejected with its words', async () => {
    const { t, clock, fake, account } = await setup({ processingPolls: 2 })
    const v = await storedMedia(t, {
      bytes: bytes(3000),
      mimeType: 'video/mp4',
      durationSec: 10,
      width: 1280,
      height: 720,
    })
    const created = await publish(t, { accountIds: [account.id], mediaIds: [v], caption: 'Video' })
    expect(await runDue(t, t.publishQueue)).toEqual(['pending'])
    expect(fake.tweets).toHaveLength(0)
    clock.set('2026-11-21T10:00:03Z')
    expect(await runDue(t, t.publishQueue)).toEqual(['pending'])
    clock.set('2026-11-21T10:00:08Z')
    expect(await runDue(t, t.publishQueue)).toEqual(['published'])
    expect(fake.calls('POST', '/2/media/upload/initialize')).toHaveLength(1)
    expect(fake.tweets[0]!.mediaIds).toEqual([[...fake.media.keys()][0]])
    expect((await getPost(t, created.id)).status).toBe('PUBLISHED')

    const v2 = await storedMedia(t, {
      bytes: bytes(3000, 9),
      mimeType: 'video/mp4',
      durationSec: 10,
      width: 1280,
      height: 720,
    })
    const second = await publish(t, { accountIds: [account.id], mediaIds: [v2], caption: 'Broken video' })
    expect(await runDue(t, t.publishQueue)).toEqual(['pending'])
    fake.failProcessing([...fake.media.keys()].at(-1)!)
    clock.set('2026-11-21T10:01:00Z')
    expect(await runDue(t, t.publishQueue)).toEqual(['failed'])
    expect((await getPost(t, second.id)).targets[0].error).toMatchObject({
      code: 'rejected',
      message: 'MICROBLOG_NET: Unsupported video codec.',
    })
  })

  it('uploads a media again when its id is about to expire (expires_after_secs) before the post goes out', async () => {
    const { t, clock, fake, account } = await setup({ processingPolls: 1, mediaLifetimeSec: 900 })
    const v = await storedMedia(t, {
      bytes: bytes(3000, 5),
      mimeType: 'video/mp4',
      durationSec: 10,
      width: 1280,
      height: 720,
    })
    await publish(t, { accountIds: [account.id], mediaIds: [v], caption: 'Late video' })
    expect(await runDue(t, t.publishQueue)).toEqual(['pending'])
    const [first] = [...fake.media.keys()]
    clock.set('2026-11-21T10:06:40Z') // 500 s of the 900 left: too close to risk
    expect(await runDue(t, t.publishQueue)).toEqual(['pending'])
    clock.set('2026-11-21T10:06:50Z')
    expect(await runDue(t, t.publishQueue)).toEqual(['published'])
    expect(fake.calls('POST', '/2/media/upload/initialize')).toHaveLength(2)
    const second = [...fake.media.keys()][1]!
    expect(second).not.toBe(first)
    expect(fake.tweets[0]!.mediaIds).toEqual([second])
    expect(Buffer.compare(fake.bytesOf(second), Buffer.from(bytes(3000, 5)))).toBe(0)
  })

  it('replies to a post given by URL, quotes with the plan, and appends the quoted URL when the plan refuses quotes', async () => {
    const { t, fake, account } = await setup({ quotesAllowed: false })
    await publish(t, {
      accountIds: [account.id],
      caption: 'Agreed',
      replyToMicropostId: 'https://twitter.com/someone/status/1234567890',
    })
    await publish(t, {
      accountIds: [account.id],
      caption: 'Look at this',
      quoteMicropostId: 'https://x.com/other/status/987654321',
    })
    expect(await runDue(t, t.publishQueue)).toEqual(['published', 'published'])
    expect(fake.tweets[0]).toMatchObject({ text: 'Agreed', replyTo: '1234567890' })
    expect(fake.tweets[1]).toMatchObject({ text: 'Look at this https://x.com/other/status/987654321', quoteId: null })
    expect(fake.calls('POST', '/2/tweets').map((r) => r.json().quote_tweet_id ?? null)).toEqual([
      null,
      '987654321',
      null,
    ])

    const allowed = await setup({ quotesAllowed: true })
    await publish(allowed.t, { accountIds: [allowed.account.id], caption: 'Quoted', quoteMicropostId: '987654321' })
    await runDue(allowed.t, allowed.t.publishQueue)
    expect(allowed.fake.tweets[0]).toMatchObject({ text: 'Quoted', quoteId: '987654321' })
  })

  it("classifies failures: the network's wait on 429, 5xx retried, duplicate text rejected with its words, a refused token expires the account", async () => {
    const { t, clock, fake, account } = await setup({}, false)
    const reset = Math.floor(Date.parse(T0) / 1000) + 600
    fake.failOn('/2/tweets', {
      status: 429,
      headers: { 'x-rate-limit-limit': '100', 'x-rate-limit-remaining': '0', 'x-rate-limit-reset': String(reset) },
      json: { title: 'Too Many Requests', detail: 'Too Many Requests', type: 'about:blank', status: 429 },
    })
    fake.failOn('/2/tweets', {
      status: 503,
      json: { title: 'Service Unavailable', detail: 'Service Unavailable', type: 'about:blank' },
    })
    const p = await publish(t, { accountIds: [account.id], caption: 'Hello' })
    expect(await runDue(t, t.publishQueue)).toEqual(['retrying'])
    const [waiting] = await t.deps.db.select().from(targets).where(eq(targets.id, p.targets[0].id))
    expect(waiting!.dueAt!.toISOString()).toBe('2026-11-21T10:10:00.000Z')
    expect(waiting!.error).toMatchObject({ code: 'rate_limited', message: 'MICROBLOG_NET: Too Many Requests' })
    clock.set('2026-11-21T10:10:00Z')
    expect(await runDue(t, t.publishQueue)).toEqual(['retrying'])
    clock.set('2026-11-21T10:20:00Z')
    expect(await runDue(t, t.publishQueue)).toEqual(['published'])
    expect(fake.tweets.map((x) => x.text)).toEqual(['Hello'])

    const dup = await publish(t, { accountIds: [account.id], caption: 'Hello' })
    expect(await runDue(t, t.publishQueue)).toEqual(['failed'])
    expect((await getPost(t, dup.id)).targets[0].error).toMatchObject({
      code: 'rejected',
      retryable: false,
      message: expect.stringMatching(/duplicate content.*Change the text/),
    })

    fake.expireToken('access-1')
    const expired = await publish(t, { accountIds: [account.id], caption: 'After expiry' })
    expect(await runDue(t, t.publishQueue)).toEqual(['failed'])
    expect((await getPost(t, expired.id)).targets[0].error).toMatchObject({
      code: 'auth_expired',
      message: expect.stringMatching(/reconnect the account.*no OAuth client configured/),
    })
    expect((await credentialsOf(t, account.id)).row.status).toBe('EXPIRED')
  })

  it('renews a due token before publishing, storing the rotated refresh token; a 401 forces one renewal', async () => {
    const { t, clock, fake, account } = await setup()
    clock.set('2026-11-21T11:58:00Z')
    await publish(t, { accountIds: [account.id], caption: 'Fresh token' })
    expect(await runDue(t, t.publishQueue)).toEqual(['published'])
    const [refresh] = fake.calls('POST', '/2/oauth2/token')
    expect(refresh!.headers.authorization).toBe(`Basic ${Buffer.from('client-1:secret-1').toString('base64')}`)
    expect(Object.fromEntries(refresh!.form())).toEqual({
      grant_type: 'refresh_token',
      refresh_token: 'refresh-1',
      client_id: 'client-1',
    })
    let stored = (await credentialsOf(t, account.id)).credentials
    expect(stored).toMatchObject({
      accessToken: 'access-2',
      refreshToken: 'refresh-2',
      expiresAt: '2026-11-21T13:58:00.000Z',
      userId: fake.userId,
    })
    expect(fake.validRefresh.has('refresh-1')).toBe(false)

    fake.expireToken('access-2')
    await publish(t, { accountIds: [account.id], caption: 'Revoked early' })
    expect(await runDue(t, t.publishQueue)).toEqual(['published'])
    stored = (await credentialsOf(t, account.id)).credentials
    expect(stored).toMatchObject({ accessToken: 'access-3', refreshToken: 'refresh-3' })
    expect(fake.tweets.map((x) => x.text)).toEqual(['Fresh token', 'Revoked early'])
  })

  it('resumes a thread after a failure mid-way without posting a part twice', async () => {
    const { t, clock, fake, account } = await setup()
    fake.failOn(
      '/2/tweets',
      { status: 500, json: { title: 'Internal Error', detail: 'Internal Error', type: 'about:blank' } },
      { skip: 1 },
    )
    const p = await publish(t, { accountIds: [account.id], caption: 'One', threadParts: ['Two', 'Three'] })
    expect(await runDue(t, t.publishQueue)).toEqual(['retrying'])
    expect(fake.tweets.map((x) => x.text)).toEqual(['One'])
    clock.set('2026-11-21T10:05:00Z')
    expect(await runDue(t, t.publishQueue)).toEqual(['published'])
    expect(fake.tweets.map((x) => [x.text, x.replyTo])).toEqual([
      ['One', null],
      ['Two', fake.tweets[0]!.id],
      ['Three', fake.tweets[1]!.id],
    ])
    expect((await getPost(t, p.id)).targets[0].platformPostId).toBe(fake.tweets[0]!.id)
  })

  it("finds a post whose answer was lost in the account's timeline instead of posting it again", async () => {
    const { t, clock, fake, account } = await setup()
    fake.failOn(
      '/2/tweets',
      { status: 503, json: { title: 'Service Unavailable', detail: 'Service Unavailable', type: 'about:blank' } },
      { afterCreate: true },
    )
    const p = await publish(t, {
      accountIds: [account.id],
      caption: 'Read https://example.com/a & more',
      threadParts: ['Part two'],
    })
    expect(await runDue(t, t.publishQueue)).toEqual(['retrying'])
    expect(fake.tweets).toHaveLength(1)
    clock.set('2026-11-21T10:05:00Z')
    expect(await runDue(t, t.publishQueue)).toEqual(['published'])
    expect(fake.tweets.map((x) => x.text)).toEqual(['Read https://example.com/a & more', 'Part two'])
    expect(fake.calls('POST', '/2/tweets')).toHaveLength(2)
    expect((await getPost(t, p.id)).targets[0].platformPostId).toBe(fake.tweets[0]!.id)
  })

  it('asks the timeline at once about a post whose answer is cut off: a garbled success is unconfirmed, never a refusal nor a second post', async () => {
    const { t, fake, account } = await setup()
    // The post is made, but the 201 carries only the start of its JSON.
    const cutOff = { status: 201, headers: { 'content-type': 'application/json' }, body: '{"data":{"id":"18000' }
    fake.failOn('/2/tweets', cutOff, { afterCreate: true })
    const p = await publish(t, { accountIds: [account.id], caption: 'Half an answer' })
    expect(await runDue(t, t.publishQueue)).toEqual(['published'])
    expect(fake.calls('POST', '/2/tweets')).toHaveLength(1)
    expect(fake.tweets.map((x) => x.text)).toEqual(['Half an answer'])
    expect((await getPost(t, p.id)).targets[0].platformPostId).toBe(fake.tweets[0]!.id)
  })

  it('lets an error of its own code through instead of reporting the network unreachable', async () => {
    const { t, fake, account } = await setup()
    const adapter = t.deps.networks.adapterFor('MICROBLOG_NET', 'DIRECT_LOGIN')!
    const input = directInput(fake.url, (await credentialsOf(t, account.id)).credentials)
    // A reply id that is not a string breaks the adapter's own parsing before anything is sent.
    const bad = { ...input, content: { ...input.content, replyToMicropostId: 42 as unknown as string } }
    await expect(adapter.publish(bad)).rejects.toBeInstanceOf(TypeError)
    // So does a progress store that fails: the very error goes up, untouched.
    const storeDown = new Error('progress store down')
    const failing = {
      ...input,
      saveProgress: async () => {
        throw storeDown
      },
    }
    await expect(adapter.publish(failing)).rejects.toBe(storeDown)
    expect(fake.calls('POST', '/2/tweets')).toHaveLength(0)
    // A network failure is still a result of its kind.
    fake.expireToken('access-1')
    expect(await adapter.publish(input)).toMatchObject({ status: 'failed', kind: 'auth_expired' })
  })

  it('settles a publish the engine lost track of: published when the timeline has it, absent (then posted once) when nothing was sent', async () => {
    const { t, clock, fake, account } = await setup()
    const p = await publish(t, { accountIds: [account.id], caption: 'Lost answer' })
    const [d] = t.publishQueue.takeDue(new Date(8.64e15))
    await claimTarget(t.deps.db, d!.targetId, d!.version, clock.now(), 60)
    // The crashed attempt had saved what it was sending, and the network made the post.
    await t.deps.db
      .update(targets)
      .set({ progress: { sending: { step: -1, at: T0, text: 'Lost answer', replyTo: null } } })
      .where(eq(targets.id, d!.targetId))
    const made = fake.addTweet('Lost answer', '2026-11-21T10:00:01.000Z')
    clock.set('2026-11-21T10:02:00Z')
    expect(await sweepTargets(t.deps, { workspaceId: t.workspaceId })).toMatchObject({ confirmed: 1, unconfirmed: 0 })
    expect((await getPost(t, p.id)).targets[0]).toMatchObject({ status: 'PUBLISHED', platformPostId: made.id })
    expect(fake.calls('POST', '/2/tweets')).toHaveLength(0)

    const q = await publish(t, { accountIds: [account.id], caption: 'Never sent' })
    const [d2] = t.publishQueue.takeDue(new Date(8.64e15))
    await claimTarget(t.deps.db, d2!.targetId, d2!.version, clock.now(), 60)
    clock.set('2026-11-21T10:04:00Z')
    expect(await sweepTargets(t.deps, { workspaceId: t.workspaceId })).toMatchObject({ confirmed: 1 })
    expect(await runDue(t, t.publishQueue)).toEqual(['published'])
    expect((await getPost(t, q.id)).status).toBe('PUBLISHED')
    expect(fake.tweets.filter((x) => x.text === 'Never sent')).toHaveLength(1)
  })

  it('reads followers and post metrics, and deletes a post', async () => {
    const { t, fake, account } = await setup()
    await publish(t, { accountIds: [account.id], caption: 'Measured' })
    await runDue(t, t.publishQueue)
    const adapter = t.deps.networks.adapterFor('MICROBLOG_NET', 'DIRECT_LOGIN')!
    const base = {
      connection: 'DIRECT_LOGIN',
      credentials: (await credentialsOf(t, account.id)).credentials,
      fetch,
      baseUrl: fake.url,
      now: new Date(T0),
    }
    const id = fake.tweets[0]!.id
    const insights = await adapter.fetchInsights!({
      ...base,
      accountId: account.id,
      now: new Date(T0),
      posts: [
        { targetId: 't1', platformPostId: id, publishedAt: new Date(T0) },
        { targetId: 't2', platformPostId: '999', publishedAt: new Date(T0) },
      ],
    })
    expect(insights).toEqual({
      followers: 1234,
      posts: [
        { targetId: 't1', likes: 10, comments: 2, shares: 4, views: 500, saves: 4, impressions: 500 },
        { targetId: 't2', likes: null, comments: null, shares: null, views: null, saves: null },
      ],
    })
    await adapter.deletePost!({ ...base, platformPostId: id })
    expect(fake.tweets).toHaveLength(0)
    await adapter.deletePost!({ ...base, platformPostId: id })
    await expect(
      adapter.deletePost!({ ...base, credentials: { ...base.credentials, accessToken: 'nope' }, platformPostId: '5' }),
    ).rejects.toMatchObject({ kind: 'auth_expired' })
  })
})

function directInput(baseUrl: string, credentials: Record<string, unknown>): PublishInput {
  return {
    idempotencyKey: 'target_1',
    accountId: 'acc_1',
    connection: 'DIRECT_LOGIN',
    credentials,
    content: {
      platform: 'MICROBLOG_NET',
      type: 'IMAGE',
      text: 'direct',
      media: [],
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
    },
    progress: {},
    saveProgress: async () => {},
    attempt: 1,
    fetch,
    baseUrl,
    now: new Date(T0),
  }
}
