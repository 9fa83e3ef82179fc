import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { accounts, targets } from '../../src/db/schema'
import { connectAccount } from '../../src/services/accounts/connection'
import { startTextThreadFake } from '../fakes/text-thread'
import { runDue } from '../support/engine'
import { fixedClock, realAccount, storedMedia } from '../support/fixtures'
import { createTestApp, type TestApp } from '../support/test-app'
import { jpeg, mp4, paint } from '../support/media'

const START = '2026-11-20T10:00:00.000Z'
const FAR = '2027-01-10T00:00:00.000Z'

async function setup(options: { processingPolls?: number } = {}) {
  const clock = fixedClock(START)
  const fake = await startTextThreadFake({ now: clock.now, ...options })
  const t = await createTestApp({
    clock,
    networks: { origins: { TEXTTHREAD_NET_API_URL: fake.url } },
    publishing: { backoffBaseSec: 10, random: () => 0.5 },
  })
  return { t, clock, fake }
}

const advance = (clock: ReturnType<typeof fixedClock>, sec: number) =>
  clock.set(new Date(clock.now().getTime() + sec * 1000).toISOString())
const threadAccount = (t: TestApp, fake: { userId: string }, expiresAt = FAR, token = 'th-token') =>
  realAccount(t, 'TEXTTHREAD_NET', 'DIRECT_LOGIN', { accessToken: token, expiresAt, userId: fake.userId })
const image = async (t: TestApp) =>
  storedMedia(t, {
    bytes: await jpeg(paint(1080, 1350, () => [10, 120, 200])),
    mimeType: 'image/jpeg',
    altText: 'Blue',
  })
const video = (t: TestApp) =>
  storedMedia(t, {
    bytes: mp4({ durationSec: 10, width: 1080, height: 1920, fastStart: true }),
    mimeType: 'video/mp4',
    width: 1080,
    height: 1920,
    durationSec: 10,
  })

async function post(t: TestApp, body: Record<string, unknown>) {
  const res = await t.call('POST', '/v1/posts', { body: { type: 'IMAGE', action: 'now', mediaIds: [], ...body } })
  const json = await res.json()
  expect(res.status, JSON.stringify(json)).toBe(200)
  return json.id as string
}
const targetRow = async (t: TestApp, postId: string) =>
  (await t.deps.db.select().from(targets).where(eq(targets.postId, postId)))[0]!

describe('TEXTTHREAD_NET adapter', () => {
  it('confirms the token belongs to the user, and refuses a bad token or another user', async () => {
    const { t, fake } = await setup()
    const ok = await connectAccount(t.deps, {
      workspaceId: t.workspaceId,
      platform: 'TEXTTHREAD_NET',
      connection: 'DIRECT_LOGIN',
      credentials: { accessToken: 'th-token', expiresAt: FAR, userId: fake.userId },
    })
    expect(ok.username).toBe('thread_user')
    expect(fake.calls('GET', '/v1.0/me')[0]!.query.get('fields')).toBe('id,username')
    await expect(
      connectAccount(t.deps, {
        workspaceId: t.workspaceId,
        platform: 'TEXTTHREAD_NET',
        connection: 'DIRECT_LOGIN',
        credentials: { accessToken: 'nope', expiresAt: FAR, userId: fake.userId },
      }),
    ).rejects.toThrow(/Session has expired/)
    await expect(
      connectAccount(t.deps, {
        workspaceId: t.workspaceId,
        platform: 'TEXTTHREAD_NET',
        connection: 'DIRECT_LOGIN',
        credentials: { accessToken: 'th-token', expiresAt: FAR, userId: '42' },
      }),
    ).rejects.toThrow(/not 42/)
  })

  it('publishes a text post with its link and a thread of replies, text exactly as written', async () => {
    const { t, fake } = await setup()
    const a = await threadAccount(t, fake)
    const caption = 'Hello <b>world</b> & @friend 🎉 #tag'
    const id = await post(t, {
      accountIds: [a.id],
      caption,
      linkUrl: 'https://example.com/read',
      threadParts: ['second *part*', 'third part'],
    })
    expect(await runDue(t, t.publishQueue)).toEqual(['published'])
    const [head, p1, p2] = fake.published()
    expect(head).toMatchObject({
      mediaType: 'TEXT',
      text: caption,
      linkAttachment: 'https://example.com/read',
      replyTo: null,
    })
    expect(p1).toMatchObject({ mediaType: 'TEXT', text: 'second *part*', replyTo: head!.id })
    expect(p2).toMatchObject({ text: 'third part', replyTo: p1!.id })
    const row = await targetRow(t, id)
    expect(row).toMatchObject({ status: 'PUBLISHED', platformPostId: head!.id, permalink: head!.permalink })
    expect(row.progress).toMatchObject({ partIds: [p1!.id, p2!.id] })
  })

  it('builds a carousel of an image and a video, waiting while the network processes them', async () => {
    const { t, clock, fake } = await setup({ processingPolls: 3 })
    const a = await threadAccount(t, fake)
    const id = await post(t, {
      type: 'CAROUSEL',
      accountIds: [a.id],
      mediaIds: [await image(t), await video(t)],
      caption: 'Look',
    })
    expect(await runDue(t, t.publishQueue)).toEqual(['pending'])
    for (let i = 0; i < 6 && (await targetRow(t, id)).status !== 'PUBLISHED'; i++) {
      advance(clock, 15)
      await runDue(t, t.publishQueue)
    }
    expect((await targetRow(t, id)).status).toBe('PUBLISHED')
    const [c1, c2, parent] = fake.containers()
    expect(c1!.params).toMatchObject({ media_type: 'IMAGE', is_carousel_item: 'true', alt_text: 'Blue' })
    expect(c1!.fetched!.contentType).toBe('image/jpeg')
    expect(c2!.params).toMatchObject({ media_type: 'VIDEO', is_carousel_item: 'true' })
    expect(c2!.fetched!.bytes).toBeGreaterThan(4000)
    expect(parent!.params).toMatchObject({ media_type: 'CAROUSEL', children: `${c1!.id},${c2!.id}`, text: 'Look' })
    expect(fake.state.publishCalls).toEqual([parent!.id])
  })

  it('publishes a single video as a VIDEO post, and refuses media the network cannot process', async () => {
    const { t, fake } = await setup()
    const a = await threadAccount(t, fake)
    const ok = await post(t, { accountIds: [a.id], mediaIds: [await video(t)], caption: 'Clip' })
    const bad = await post(t, {
      accountIds: [a.id],
      mediaIds: [
        await storedMedia(t, { bytes: new TextEncoder().encode('<html>not an image</html>'), mimeType: 'image/jpeg' }),
      ],
      caption: 'x',
    })
    await runDue(t, t.publishQueue)
    expect((await targetRow(t, ok)).status).toBe('PUBLISHED')
    expect(fake.published()[0]).toMatchObject({ mediaType: 'VIDEO', text: 'Clip' })
    expect((await targetRow(t, bad)).error).toMatchObject({
      code: 'rejected',
      message: expect.stringContaining('FAILED_PROCESSING_IMAGE'),
    })
  })

  it('recovers a part whose publish answer was lost, and resumes after a 5xx mid-thread', async () => {
    const { t, clock, fake } = await setup()
    const a = await threadAccount(t, fake)
    const id = await post(t, { accountIds: [a.id], caption: 'Head', threadParts: ['one', 'two', 'three'] })
    // Part "one" (the second publish) is made by the network, but its answer is lost.
    fake.state.loseAnswerOfPublishCall = 2
    expect(await runDue(t, t.publishQueue)).toEqual(['retrying'])
    expect((await targetRow(t, id)).progress).toMatchObject({ headId: fake.published()[0]!.id })
    fake.failNext(/\/threads$/, {
      status: 500,
      json: { error: { message: 'An unknown error occurred', code: 1, is_transient: true, fbtrace_id: 'x' } },
    })
    advance(clock, 60)
    expect(await runDue(t, t.publishQueue)).toEqual(['retrying'])
    advance(clock, 120)
    expect(await runDue(t, t.publishQueue)).toEqual(['published'])
    const posts = fake.published()
    expect(posts.map((p) => p.text)).toEqual(['Head', 'one', 'two', 'three'])
    expect(posts[2]!.replyTo).toBe(posts[1]!.id)
    expect(new Set(fake.state.publishCalls).size).toBe(fake.state.publishCalls.length)
    expect((await targetRow(t, id)).progress).toMatchObject({ partIds: posts.slice(1).map((p) => p.id) })
  })

  it('waits when throttled, and marks the account EXPIRED when the token is refused and cannot be renewed', async () => {
    const { t, clock, fake } = await setup()
    const a = await threadAccount(t, fake)
    fake.failNext(/\/threads$/, {
      status: 400,
      headers: {
        'x-business-use-case-usage': JSON.stringify({
          [fake.userId]: [{ type: 'threads', estimated_time_to_regain_access: 2 }],
        }),
      },
      json: { error: { message: 'Application request limit reached', code: 4, fbtrace_id: 'x' } },
    })
    const id = await post(t, { accountIds: [a.id], caption: 'Hi' })
    expect(await runDue(t, t.publishQueue)).toEqual(['retrying'])
    const row = await targetRow(t, id)
    expect(row.error).toMatchObject({ code: 'rate_limited' })
    expect(row.dueAt!.getTime() - clock.now().getTime()).toBe(120_000)
    fake.expireToken()
    advance(clock, 120)
    expect(await runDue(t, t.publishQueue)).toEqual(['failed'])
    expect((await targetRow(t, id)).error).toMatchObject({ code: 'auth_expired' })
    const [acc] = await t.deps.db.select().from(accounts).where(eq(accounts.id, a.id))
    expect(acc!.status).toBe('EXPIRED')
    expect(acc!.statusMessage).toMatch(/reconnect the account/)
  })

  it('renews a token close to expiry and saves the new one before publishing', async () => {
    const { t, fake } = await setup()
    const a = await threadAccount(t, fake, '2026-11-22T00:00:00.000Z')
    await post(t, { accountIds: [a.id], caption: 'Fresh' })
    expect(await runDue(t, t.publishQueue)).toEqual(['published'])
    expect(fake.calls('GET', '/refresh_access_token')[0]!.query.get('grant_type')).toBe('th_refresh_token')
    const [acc] = await t.deps.db.select().from(accounts).where(eq(accounts.id, a.id))
    expect(await t.deps.cipher.decrypt(acc!.credentials, a.id)).toEqual({
      accessToken: 'th-token-r1',
      expiresAt: '2027-01-19T10:00:00.000Z',
      userId: fake.userId,
    })
  })

  it('answers an unconfirmed publish, deletes a post, and collects no insights', async () => {
    const { t, fake } = await setup()
    const a = await threadAccount(t, fake)
    const adapter = t.deps.networks.adapterFor('TEXTTHREAD_NET', 'DIRECT_LOGIN')!
    expect(adapter.fetchInsights).toBeUndefined()
    const base = {
      idempotencyKey: 'tg_1',
      accountId: a.id,
      connection: 'DIRECT_LOGIN',
      credentials: { accessToken: 'th-token', expiresAt: FAR, userId: fake.userId },
      content: {
        platform: 'TEXTTHREAD_NET' as const,
        type: 'IMAGE' as const,
        text: 'Maybe',
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
      saveProgress: async () => {},
      attempt: 1,
      fetch,
      baseUrl: fake.url,
      now: new Date(START),
      unconfirmed: true,
    }
    expect(await adapter.checkStatus!({ ...base, progress: {} })).toEqual({ status: 'absent' })
    await post(t, { accountIds: [a.id], caption: 'Delete me' })
    await runDue(t, t.publishQueue)
    const [published] = fake.published()
    const container = fake.containers()[0]!
    expect(
      await adapter.checkStatus!({
        ...base,
        content: { ...base.content, text: 'Delete me' },
        progress: { containers: { childIds: [], id: container.id, publishRequestedAt: START } },
      }),
    ).toMatchObject({ status: 'published', platformPostId: published!.id })
    await adapter.deletePost!({
      connection: 'DIRECT_LOGIN',
      credentials: base.credentials,
      platformPostId: published!.id,
      fetch,
      baseUrl: fake.url,
      now: new Date(START),
    })
    expect(fake.published()).toHaveLength(0)
    await adapter.deletePost!({
      connection: 'DIRECT_LOGIN',
      credentials: base.credentials,
      platformPostId: published!.id,
      fetch,
      baseUrl: fake.url,
      now: new Date(START),
    })
  })
})
