import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { accounts, targets } from '../../src/db/schema'
import type { PublishProgress } from '../../src/networks/adapter'
import { connectAccount } from '../../src/services/accounts/connection'
import { claimTarget } from '../../src/services/publishing/claim'
import { sweepTargets } from '../../src/services/publishing/sweep'
import { startFederatedFake } from '../fakes/federated'
import { jpeg, mp4, paint } from '../support/media'
import { runDue } from '../support/engine'
import { fixedClock, realAccount, storedMedia } from '../support/fixtures'
import { createTestApp, type TestApp } from '../support/test-app'

async function setup(fakeOptions: Omit<Parameters<typeof startFederatedFake>[0], 'now'> = {}) {
  const clock = fixedClock('2026-11-21T10:00:00Z')
  const fake = await startFederatedFake({ now: clock.now, ...fakeOptions })
  const t = await createTestApp({
    clock,
    publishing: {
      backoffBaseSec: 10,
      maxAttempts: 3,
      leaseSec: 60,
      sweepGraceSec: 30,
      random: () => 0.5,
    },
  })
  const creds = { instanceUrl: fake.url, accessToken: fake.token }
  const acct = await realAccount(t, 'FEDERATED_NET', 'DIRECT_LOGIN', creds, '109876')
  return { t, clock, fake, acct, creds }
}

const createPost = async (t: TestApp, accountId: string, body: Record<string, unknown>) =>
  (
    await t.call('POST', '/v1/posts', {
      body: { type: 'IMAGE', mediaIds: [], accountIds: [accountId], action: 'now', ...body },
    })
  ).json()
const getPost = async (t: TestApp, id: string) => (await t.call('GET', `/v1/posts/${id}`)).json()
const adapter = (t: TestApp) => t.deps.networks.adapterFor('FEDERATED_NET', 'DIRECT_LOGIN')!
const later = (clock: ReturnType<typeof fixedClock>, sec: number) =>
  clock.set(new Date(clock.now().getTime() + sec * 1000).toISOString())
const content = (text: string) => ({
  platform: 'FEDERATED_NET' as const,
  type: 'IMAGE' as const,
  text,
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
})

describe('FEDERATED_NET adapter', () => {
  it('confirms a token with verify_credentials; refuses a revoked one', async () => {
    const { t, fake, creds } = await setup()
    const added = await connectAccount(t.deps, {
      workspaceId: t.workspaceId,
      platform: 'FEDERATED_NET',
      connection: 'DIRECT_LOGIN',
      credentials: creds,
    })
    expect(added).toMatchObject({ username: 'alice', status: 'ACTIVE' })
    const [row] = await t.deps.db.select().from(accounts).where(eq(accounts.id, added.id))
    expect(row!.externalId).toBe('109876')
    // 403 (methods/accounts.md): the login is disabled, unconfirmed or pending approval.
    fake.failNext('verify', { status: 403, json: { error: 'Your login is currently disabled' } })
    await expect(
      connectAccount(t.deps, {
        workspaceId: t.workspaceId,
        platform: 'FEDERATED_NET',
        connection: 'DIRECT_LOGIN',
        credentials: creds,
      }),
    ).rejects.toThrow(/Your login is currently disabled/)
    fake.revokeTokens()
    await expect(
      connectAccount(t.deps, {
        workspaceId: t.workspaceId,
        platform: 'FEDERATED_NET',
        connection: 'DIRECT_LOGIN',
        credentials: creds,
      }),
    ).rejects.toThrow(/The access token is invalid/)
  })

  it('stores a real permalink when the instance answers a status without url (or url: null) and without uri', async () => {
    for (const statusAddresses of ['no-url', 'null-url', 'bare'] as const) {
      const { t, fake, acct } = await setup({ statusAddresses })
      const p = await createPost(t, acct.id, { caption: `No address (${statusAddresses})` })
      await runDue(t, t.publishQueue)
      const after = await getPost(t, p.id)
      expect(after.status).toBe('PUBLISHED')
      const head = fake.state.statuses[0]!
      const permalink: string = after.targets[0].permalink
      expect(permalink).not.toContain('undefined')
      expect(permalink).not.toContain('null')
      expect(new URL(permalink).origin).toBe(new URL(fake.url).origin)
      // The documented web address: the account's page and the status id, else the instance's /statuses/<id>.
      expect(permalink).toBe(
        statusAddresses === 'bare' ? `${fake.url}/statuses/${head.id}` : `${fake.url}/@alice/${head.id}`,
      )
    }
  })

  it('publishes images with descriptions and a thread, text exactly as written, one Idempotency-Key per part', async () => {
    const { t, fake, acct } = await setup()
    const img = await jpeg(paint(40, 30, () => [10, 200, 10]))
    const m1 = await storedMedia(t, { bytes: img, mimeType: 'image/jpeg', altText: 'A green field' })
    const m2 = await storedMedia(t, { bytes: await jpeg(paint(20, 20, () => [0, 0, 0])), mimeType: 'image/jpeg' })
    const caption = 'Hello <b>world</b> & @bob@other.example #tag https://example.com/x?y=1'
    const p = await createPost(t, acct.id, { caption, mediaIds: [m1, m2], threadParts: ['part two', 'part three'] })
    await runDue(t, t.publishQueue)
    const after = await getPost(t, p.id)
    expect(after.status).toBe('PUBLISHED')
    const [head, two, three] = fake.state.statuses
    expect(fake.state.statuses.map((s) => s.text)).toEqual([caption, 'part two', 'part three'])
    expect(after.targets[0]).toMatchObject({ platformPostId: head!.id, permalink: head!.url })
    expect(head!.visibility).toBe('public')
    expect([two!.inReplyToId, three!.inReplyToId]).toEqual([head!.id, two!.id])
    const keys = fake.state.statuses.map((s) => s.idempotencyKey)
    expect(new Set(keys).size).toBe(3)
    expect(keys[0]).toContain(after.targets[0].id)
    const media = head!.mediaIds.map((id) => fake.state.media.get(id)!)
    expect(media.map((m) => m.description)).toEqual(['A green field', null])
    expect(media[0]!.bytes.equals(Buffer.from(img))).toBe(true)
    expect(media[0]!.mimeType).toBe('image/jpeg')
  })

  it('waits for a video to finish processing through pending checks, uploading it once', async () => {
    const { t, clock, fake, acct } = await setup()
    const bytes = mp4({ durationSec: 3, width: 320, height: 240 })
    const m = await storedMedia(t, { bytes, mimeType: 'video/mp4', durationSec: 3, altText: 'a clip' })
    const p = await createPost(t, acct.id, { caption: 'clip', mediaIds: [m] })
    await runDue(t, t.publishQueue)
    expect((await getPost(t, p.id)).targets[0].status).toBe('PENDING')
    expect(fake.state.statuses).toHaveLength(0)
    for (let i = 0; i < 3; i++) {
      later(clock, 5)
      await runDue(t, t.publishQueue)
    }
    expect((await getPost(t, p.id)).status).toBe('PUBLISHED')
    expect(fake.server.calls('POST', '/api/v2/media')).toHaveLength(1)
    const [status] = fake.state.statuses
    expect(fake.state.media.get(status!.mediaIds[0]!)).toMatchObject({ description: 'a clip', mimeType: 'video/mp4' })
    expect(fake.state.media.get(status!.mediaIds[0]!)!.bytes.equals(Buffer.from(bytes))).toBe(true)
  })

  it("fails with the instance's words when processing the video fails (422 from GET /api/v1/media/:id)", async () => {
    const { t, clock, fake, acct } = await setup()
    fake.failNextProcessing()
    const m = await storedMedia(t, {
      bytes: mp4({ durationSec: 3, width: 320, height: 240 }),
      mimeType: 'video/mp4',
      durationSec: 3,
    })
    const p = await createPost(t, acct.id, { caption: 'clip', mediaIds: [m] })
    await runDue(t, t.publishQueue)
    for (let i = 0; i < 3; i++) {
      later(clock, 5)
      await runDue(t, t.publishQueue)
    }
    expect((await getPost(t, p.id)).targets[0]).toMatchObject({
      status: 'FAILED',
      error: {
        code: 'rejected',
        message: 'FEDERATED_NET: Validation failed: File content type is invalid, File is invalid',
      },
    })
    expect(fake.server.calls('POST', '/api/v1/statuses')).toHaveLength(0)
  })

  it('waits again when the instance says the media is still processing (its pending state lost)', async () => {
    const { t, clock, fake, acct } = await setup()
    const m = await storedMedia(t, {
      bytes: mp4({ durationSec: 3, width: 320, height: 240 }),
      mimeType: 'video/mp4',
      durationSec: 3,
    })
    const p = await createPost(t, acct.id, { caption: 'clip', mediaIds: [m] })
    await runDue(t, t.publishQueue)
    const targetId = (await getPost(t, p.id)).targets[0].id
    const [row] = await t.deps.db.select().from(targets).where(eq(targets.id, targetId))
    const { pending: _lost, ...rest } = row!.progress as Record<string, unknown>
    await t.deps.db.update(targets).set({ progress: rest }).where(eq(targets.id, targetId))
    for (let i = 0; i < 4; i++) {
      later(clock, 5)
      await runDue(t, t.publishQueue)
    }
    expect((await getPost(t, p.id)).status).toBe('PUBLISHED')
    expect(fake.server.calls('POST', '/api/v2/media')).toHaveLength(1)
    expect(fake.server.calls('POST', '/api/v1/statuses')).toHaveLength(2)
    expect(fake.state.statuses).toHaveLength(1)
  })

  it("classifies failures: 429 waits until X-RateLimit-Reset, 5xx is retried, 422 fails with the instance's words", async () => {
    const { t, clock, fake, acct } = await setup()
    fake.failNext('status', {
      status: 429,
      headers: { 'x-ratelimit-reset': '2026-11-21T10:03:00.000000Z', 'x-ratelimit-remaining': '0' },
      json: { error: 'Too many requests' },
    })
    const p = await createPost(t, acct.id, { caption: 'hi' })
    await runDue(t, t.publishQueue)
    let target = (await getPost(t, p.id)).targets[0]
    expect(target).toMatchObject({
      status: 'PENDING',
      error: { code: 'rate_limited', message: 'FEDERATED_NET: Too many requests' },
    })
    const [row] = await t.deps.db.select().from(targets).where(eq(targets.id, target.id))
    expect(row!.dueAt!.getTime()).toBeGreaterThanOrEqual(Date.parse('2026-11-21T10:03:00Z'))
    fake.failNext('status', { status: 503, json: { error: 'Service Unavailable' } })
    clock.set('2026-11-21T10:04:00Z')
    await runDue(t, t.publishQueue)
    target = (await getPost(t, p.id)).targets[0]
    expect(target).toMatchObject({ status: 'PENDING', error: { code: 'transient' } })
    fake.failNext('status', { status: 422, json: { error: 'Validation failed: Text character limit of 500 exceeded' } })
    clock.set('2026-11-21T10:10:00Z')
    await runDue(t, t.publishQueue)
    expect((await getPost(t, p.id)).targets[0]).toMatchObject({
      status: 'FAILED',
      error: { code: 'rejected', message: 'FEDERATED_NET: Validation failed: Text character limit of 500 exceeded' },
    })
    expect(fake.state.statuses).toHaveLength(0)
  })

  it('marks the account EXPIRED with a reconnect message when the instance refuses the token', async () => {
    const { t, fake, acct } = await setup()
    fake.revokeTokens()
    const p = await createPost(t, acct.id, { caption: 'hi' })
    await runDue(t, t.publishQueue)
    expect((await getPost(t, p.id)).targets[0]).toMatchObject({
      status: 'FAILED',
      error: { code: 'auth_expired', message: expect.stringContaining('reconnect the account') },
    })
    const [row] = await t.deps.db.select().from(accounts).where(eq(accounts.id, acct.id))
    expect(row!.status).toBe('EXPIRED')
    expect(row!.statusMessage).toContain('The access token is invalid')
  })

  it('resumes a thread after a failure mid-way, and a lost answer never makes a second status', async () => {
    const { t, clock, fake, acct } = await setup()
    fake.failNext('status', { status: 500, json: { error: 'Internal error' } }, 2)
    const p = await createPost(t, acct.id, { caption: 'one', threadParts: ['two', 'three', 'four'] })
    await runDue(t, t.publishQueue)
    expect(fake.state.statuses.map((s) => s.text)).toEqual(['one', 'two'])
    // The third part is made, but its answer is lost: the retry's same key gets it back.
    later(clock, 300)
    fake.loseNextStatus()
    await runDue(t, t.publishQueue)
    expect(fake.state.statuses.map((s) => s.text)).toEqual(['one', 'two', 'three'])
    later(clock, 300)
    await runDue(t, t.publishQueue)
    expect((await getPost(t, p.id)).status).toBe('PUBLISHED')
    expect(fake.state.statuses.map((s) => s.text)).toEqual(['one', 'two', 'three', 'four'])
    expect(fake.state.statuses[3]!.inReplyToId).toBe(fake.state.statuses[2]!.id)
  })

  it("settles an unconfirmed publish: same status within the key's hour, absent when never sent, unconfirmed after the hour", async () => {
    const { t, clock, fake, acct, creds } = await setup()
    const p1 = await createPost(t, acct.id, { caption: 'sent before the crash' })
    const p2 = await createPost(t, acct.id, { caption: 'never sent' })
    const [d1, d2] = t.publishQueue.takeDue(new Date(8.64e15))
    const c1 = await claimTarget(t.deps.db, d1!.targetId, d1!.version, clock.now(), 60)
    await claimTarget(t.deps.db, d2!.targetId, d2!.version, clock.now(), 60)
    // The first reaches the network (its progress saved as the engine would), then the process dies before the answer is recorded.
    const saved: PublishProgress = {}
    const saveProgress = async (next: PublishProgress) => {
      Object.assign(saved, next)
      await t.deps.db
        .update(targets)
        .set({ progress: { ...saved, headId: undefined, headPermalink: undefined } })
        .where(eq(targets.id, c1!.target.id))
    }
    await adapter(t).publish({
      idempotencyKey: c1!.target.id,
      accountId: acct.id,
      connection: 'DIRECT_LOGIN',
      credentials: creds,
      content: content('sent before the crash'),
      progress: {},
      saveProgress,
      attempt: 1,
      fetch,
      baseUrl: fake.url,
      now: clock.now(),
    })
    expect(fake.state.statuses).toHaveLength(1)
    clock.set('2026-11-21T10:02:00Z')
    expect(await sweepTargets(t.deps, { workspaceId: t.workspaceId })).toMatchObject({ confirmed: 2, unconfirmed: 0 })
    expect((await getPost(t, p1.id)).targets[0]).toMatchObject({
      status: 'PUBLISHED',
      platformPostId: fake.state.statuses[0]!.id,
    })
    expect((await getPost(t, p2.id)).targets[0].status).toBe('PENDING')
    await runDue(t, t.publishQueue)
    expect(fake.state.statuses.map((s) => s.text)).toEqual(['sent before the crash', 'never sent'])

    // A status sent more than an hour before the sweep: the instance forgot the key, so no guess.
    const p3 = await createPost(t, acct.id, { caption: 'long lost' })
    const [d3] = t.publishQueue.takeDue(new Date(8.64e15))
    const c3 = await claimTarget(t.deps.db, d3!.targetId, d3!.version, clock.now(), 60)
    await t.deps.db
      .update(targets)
      .set({ progress: { keyIssuedAt: clock.now().toISOString() } })
      .where(eq(targets.id, c3!.target.id))
    clock.set('2026-11-21T11:30:00Z')
    expect(await sweepTargets(t.deps, { workspaceId: t.workspaceId })).toMatchObject({ unconfirmed: 1 })
    expect((await getPost(t, p3.id)).targets[0]).toMatchObject({ status: 'FAILED', error: { code: 'unconfirmed' } })
    expect(fake.state.statuses).toHaveLength(2)
  })

  it('reads followers and status counts (no views or saves), and deletes a status', async () => {
    const { t, clock, fake, acct, creds } = await setup()
    await createPost(t, acct.id, { caption: 'measured' })
    await runDue(t, t.publishQueue)
    const status = fake.state.statuses[0]!
    Object.assign(status, { favourites_count: 7, replies_count: 2, reblogs_count: 3 })
    const base = {
      accountId: acct.id,
      connection: 'DIRECT_LOGIN',
      credentials: creds,
      fetch,
      baseUrl: fake.url,
      now: clock.now(),
    }
    const insights = await adapter(t).fetchInsights!({
      ...base,
      posts: [
        { targetId: 'tgt_1', platformPostId: status.id, publishedAt: clock.now() },
        { targetId: 'tgt_2', platformPostId: '999', publishedAt: clock.now() },
      ],
    })
    expect(insights).toEqual({
      followers: 17,
      posts: [
        { targetId: 'tgt_1', likes: 7, comments: 2, shares: 3, views: null, saves: null },
        { targetId: 'tgt_2', likes: null, comments: null, shares: null, views: null, saves: null },
      ],
    })
    await adapter(t).deletePost!({
      connection: 'DIRECT_LOGIN',
      credentials: creds,
      platformPostId: status.id,
      fetch,
      baseUrl: fake.url,
      now: t.deps.clock.now(),
    })
    expect(fake.state.statuses).toHaveLength(0)
    await adapter(t).deletePost!({
      connection: 'DIRECT_LOGIN',
      credentials: creds,
      platformPostId: status.id,
      fetch,
      baseUrl: fake.url,
      now: t.deps.clock.now(),
    })
  })
})
