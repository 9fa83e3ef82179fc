import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { accounts, targets } from '../../src/db/schema'
import { connectAccount } from '../../src/services/accounts/connection'
import { claimTarget } from '../../src/services/publishing/claim'
import { sweepTargets } from '../../src/services/publishing/sweep'
import { startOpenProtocolFake } from '../fakes/open-protocol'
import { jpeg, mp4, paint } from '../support/media'
import { runDue } from '../support/engine'
import { fixedClock, realAccount, storedMedia } from '../support/fixtures'
import { createTestApp, type TestApp } from '../support/test-app'

const TID = /^[234567abcdefghij][234567abcdefghijklmnopqrstuvwxyz]{12}$/

async function setup() {
  const clock = fixedClock('2026-11-21T10:00:00Z')
  const fake = await startOpenProtocolFake({ now: clock.now })
  const t = await createTestApp({
    clock,
    networks: { origins: { OPENPROTOCOL_NET_VIDEO_URL: fake.videoUrl } },
    publishing: {
      backoffBaseSec: 10,
      maxAttempts: 3,
      leaseSec: 60,
      sweepGraceSec: 30,
      random: () => 0.5,
    },
  })
  const creds = { serviceUrl: fake.url, identifier: fake.handle, appPassword: fake.appPassword }
  const acct = await realAccount(t, 'OPENPROTOCOL_NET', 'APP_PASSWORD', creds, fake.did)
  return { t, clock, fake, acct, creds }
}

const createPost = async (t: TestApp, accountId: string, body: Record<string, unknown>) =>
  (
    await t.call('POST', '/v1/posts', {
      body: { type: 'IMAGE', mediaIds: [], accountIds: [accountId], action: 'now', ...body },
    })
  ).json()
const getPost = async (t: TestApp, id: string) => (await t.call('GET', `/v1/posts/${id}`)).json()
const storedCreds = async (t: TestApp, id: string) => {
  const [row] = await t.deps.db.select().from(accounts).where(eq(accounts.id, id))
  return { row: row!, creds: await t.deps.cipher.decrypt(row!.credentials, id) }
}
const adapter = (t: TestApp) => t.deps.networks.adapterFor('OPENPROTOCOL_NET', 'APP_PASSWORD')!
const bytesOf = (s: string, part: string) => Buffer.from(s.slice(0, s.indexOf(part))).byteLength

describe('OPENPROTOCOL_NET adapter', () => {
  it('confirms an app password with createSession and stores the session; refuses a wrong one', async () => {
    const { t, fake, creds } = await setup()
    const added = await connectAccount(t.deps, {
      workspaceId: t.workspaceId,
      platform: 'OPENPROTOCOL_NET',
      connection: 'APP_PASSWORD',
      credentials: creds,
    })
    expect(added).toMatchObject({ username: fake.handle, status: 'ACTIVE' })
    const { row, creds: saved } = await storedCreds(t, added.id)
    expect(row.externalId).toBe(fake.did)
    expect(saved.session).toMatchObject({
      did: fake.did,
      handle: fake.handle,
      accessJwt: expect.any(String),
      refreshJwt: expect.any(String),
    })
    await expect(
      connectAccount(t.deps, {
        workspaceId: t.workspaceId,
        platform: 'OPENPROTOCOL_NET',
        connection: 'APP_PASSWORD',
        credentials: { ...creds, appPassword: 'wrong' },
      }),
    ).rejects.toThrow(/Invalid identifier or password/)
  })

  it('publishes images with alt text, facets and a self-thread, under deterministic record keys', async () => {
    const { t, fake, acct } = await setup()
    fake.state.handles.set('bob.test', 'did:plc:bob')
    const img = await jpeg(paint(64, 48, () => [200, 10, 10]))
    const m1 = await storedMedia(t, {
      bytes: img,
      mimeType: 'image/jpeg',
      width: 640,
      height: 480,
      altText: 'A red square',
    })
    const m2 = await storedMedia(t, {
      bytes: await jpeg(paint(32, 32, () => [0, 0, 255])),
      mimeType: 'image/jpeg',
      width: 32,
      height: 32,
    })
    const caption = 'Café 🎉 with @bob.test and @nobody.test, see https://example.com/a?b=1. #tagged'
    const p = await createPost(t, acct.id, { caption, mediaIds: [m1, m2], threadParts: ['second part', 'third part'] })
    await runDue(t, t.publishQueue)
    const after = await getPost(t, p.id)
    expect(after.status).toBe('PUBLISHED')
    const [head, second, third] = fake.posts()
    expect(fake.posts()).toHaveLength(3)
    expect(head!.rkey).toMatch(TID)
    expect(after.targets[0]).toMatchObject({
      platformPostId: head!.uri,
      permalink: `https://bsky.app/profile/${fake.handle}/post/${head!.rkey}`,
    })
    expect(head!.value.text).toBe(caption)
    expect(head!.value.embed.images).toEqual([
      {
        image: expect.objectContaining({ mimeType: 'image/jpeg', size: img.byteLength }),
        alt: 'A red square',
        aspectRatio: { width: 640, height: 480 },
      },
      { image: expect.objectContaining({ mimeType: 'image/jpeg' }), alt: '', aspectRatio: { width: 32, height: 32 } },
    ])
    expect(fake.state.blobs.get(head!.value.embed.images[0].image.ref.$link)!.bytes.equals(Buffer.from(img))).toBe(true)
    const facets = head!.value.facets
    expect(facets).toEqual([
      {
        $type: 'app.bsky.richtext.facet',
        index: { byteStart: bytesOf(caption, '@bob'), byteEnd: bytesOf(caption, ' and @nobody') },
        features: [{ $type: 'app.bsky.richtext.facet#mention', did: 'did:plc:bob' }],
      },
      {
        $type: 'app.bsky.richtext.facet',
        index: { byteStart: bytesOf(caption, 'https'), byteEnd: bytesOf(caption, '. #tagged') },
        features: [{ $type: 'app.bsky.richtext.facet#link', uri: 'https://example.com/a?b=1' }],
      },
      {
        $type: 'app.bsky.richtext.facet',
        index: { byteStart: bytesOf(caption, '#tagged'), byteEnd: Buffer.from(caption).byteLength },
        features: [{ $type: 'app.bsky.richtext.facet#tag', tag: 'tagged' }],
      },
    ])
    expect(second!.value.reply).toEqual({
      root: { uri: head!.uri, cid: head!.cid },
      parent: { uri: head!.uri, cid: head!.cid },
    })
    expect(third!.value.reply).toEqual({
      root: { uri: head!.uri, cid: head!.cid },
      parent: { uri: second!.uri, cid: second!.cid },
    })
    // One session for the whole publish, cached in the account's credentials.
    expect(fake.state.createSessions).toBe(1)
    expect((await storedCreds(t, acct.id)).creds.session).toMatchObject({ did: fake.did })
  })

  it('uploads a video to the video service and waits for its job through pending checks', async () => {
    const { t, clock, fake, acct } = await setup()
    const bytes = mp4({ durationSec: 4, width: 320, height: 240 })
    const m = await storedMedia(t, {
      bytes,
      mimeType: 'video/mp4',
      width: 320,
      height: 240,
      durationSec: 4,
      altText: 'clip',
    })
    const p = await createPost(t, acct.id, { caption: 'A clip', mediaIds: [m] })
    await runDue(t, t.publishQueue)
    expect((await getPost(t, p.id)).targets[0].status).toBe('PENDING')
    expect(fake.posts()).toHaveLength(0)
    for (let i = 1; i <= 3; i++) {
      clock.set(new Date(Date.parse('2026-11-21T10:00:00Z') + i * 5_000).toISOString())
      await runDue(t, t.publishQueue)
    }
    expect((await getPost(t, p.id)).status).toBe('PUBLISHED')
    expect(fake.video.calls('POST', '/xrpc/app.bsky.video.uploadVideo')).toHaveLength(1)
    const [job] = [...fake.state.videos.values()]
    expect(job!.bytes.equals(Buffer.from(bytes))).toBe(true)
    expect(fake.posts()[0]!.value.embed).toMatchObject({
      $type: 'app.bsky.embed.video',
      alt: 'clip',
      aspectRatio: { width: 320, height: 240 },
      video: { mimeType: 'video/mp4', size: bytes.byteLength },
    })
  })

  it('uses the blob of a video the service already processed (job ends in already_exists with its blob)', async () => {
    const { t, clock, fake, acct } = await setup()
    fake.videoSeenBefore(true)
    const m = await storedMedia(t, {
      bytes: mp4({ durationSec: 4, width: 320, height: 240 }),
      mimeType: 'video/mp4',
      durationSec: 4,
    })
    const p = await createPost(t, acct.id, { caption: 'Again', mediaIds: [m] })
    for (let i = 0; i <= 3; i++) {
      clock.set(new Date(Date.parse('2026-11-21T10:00:00Z') + i * 5_000).toISOString())
      await runDue(t, t.publishQueue)
    }
    expect((await getPost(t, p.id)).status).toBe('PUBLISHED')
    expect(fake.posts()[0]!.value.embed).toMatchObject({
      $type: 'app.bsky.embed.video',
      video: { mimeType: 'video/mp4' },
    })
  })

  it('fails a post whose video the service cannot process, with its reason', async () => {
    const { t, clock, fake, acct } = await setup()
    fake.failVideoJobs(true)
    const m = await storedMedia(t, {
      bytes: mp4({ durationSec: 4, width: 320, height: 240 }),
      mimeType: 'video/mp4',
      durationSec: 4,
    })
    const p = await createPost(t, acct.id, { caption: 'A clip', mediaIds: [m] })
    for (let i = 0; i <= 3; i++) {
      clock.set(new Date(Date.parse('2026-11-21T10:00:00Z') + i * 5_000).toISOString())
      await runDue(t, t.publishQueue)
    }
    const after = await getPost(t, p.id)
    expect(after.targets[0]).toMatchObject({
      status: 'FAILED',
      error: { code: 'rejected', message: expect.stringContaining('Video is too long') },
    })
  })

  it("checks getUploadLimits before uploading a video: a spent daily quota waits (rate_limited), any other refusal is rejected in the service's words", async () => {
    const { t, fake, acct } = await setup()
    const m = await storedMedia(t, {
      bytes: mp4({ durationSec: 4, width: 320, height: 240 }),
      mimeType: 'video/mp4',
      durationSec: 4,
    })
    fake.setUploadLimits({
      canUpload: false,
      remainingDailyVideos: 0,
      remainingDailyBytes: 0,
      message: 'You have reached your daily video upload limit',
    })
    const quota = await createPost(t, acct.id, { caption: 'A clip', mediaIds: [m] })
    await runDue(t, t.publishQueue)
    const target = (await getPost(t, quota.id)).targets[0]
    expect(target.status).not.toBe('FAILED')
    expect(target.error).toMatchObject({
      code: 'rate_limited',
      message: expect.stringContaining('daily video upload limit'),
    })
    expect(fake.video.calls('GET', '/xrpc/app.bsky.video.getUploadLimits')).toHaveLength(1)
    expect(fake.video.calls('POST', '/xrpc/app.bsky.video.uploadVideo')).toHaveLength(0)

    fake.setUploadLimits({
      canUpload: false,
      remainingDailyVideos: 25,
      remainingDailyBytes: 10_000_000_000,
      message: 'Please verify your email address before uploading videos',
    })
    const refused = await createPost(t, acct.id, { caption: 'Another clip', mediaIds: [m] })
    await runDue(t, t.publishQueue)
    expect((await getPost(t, refused.id)).targets[0]).toMatchObject({
      status: 'FAILED',
      error: {
        code: 'rejected',
        message: 'OPENPROTOCOL_NET: Please verify your email address before uploading videos.',
      },
    })
    expect(fake.video.calls('POST', '/xrpc/app.bsky.video.uploadVideo')).toHaveLength(0)
  })

  it('adds a link card when a link is given without media', async () => {
    const { t, fake, acct } = await setup()
    await createPost(t, acct.id, { caption: 'Read this', linkUrl: 'https://news.example.org/story' })
    await runDue(t, t.publishQueue)
    expect(fake.posts()[0]!.value.embed).toEqual({
      $type: 'app.bsky.embed.external',
      external: { uri: 'https://news.example.org/story', title: 'news.example.org', description: '' },
    })
  })

  it("classifies failures: rate limit with the reset time, rejection in the network's words, 5xx transient", async () => {
    const { t, clock, fake, acct } = await setup()
    const reset = Math.floor(clock.now().getTime() / 1000) + 120
    fake.failNext('com.atproto.repo.createRecord', {
      status: 429,
      headers: { 'ratelimit-reset': String(reset), 'ratelimit-remaining': '0' },
      json: { error: 'RateLimitExceeded', message: 'Rate Limit Exceeded' },
    })
    const p = await createPost(t, acct.id, { caption: 'hi' })
    await runDue(t, t.publishQueue)
    let target = (await getPost(t, p.id)).targets[0]
    expect(target).toMatchObject({
      status: 'PENDING',
      error: { code: 'rate_limited', message: expect.stringContaining('Rate Limit Exceeded') },
    })
    const [row] = await t.deps.db.select().from(targets).where(eq(targets.id, target.id))
    expect(row!.dueAt!.getTime() - clock.now().getTime()).toBeGreaterThanOrEqual(120_000)
    fake.failNext('com.atproto.repo.createRecord', {
      status: 502,
      json: { error: 'UpstreamFailure', message: 'Upstream Failure' },
    })
    clock.set('2026-11-21T10:02:05Z')
    await runDue(t, t.publishQueue)
    target = (await getPost(t, p.id)).targets[0]
    expect(target).toMatchObject({ status: 'PENDING', error: { code: 'transient' } })
    fake.failNext('com.atproto.repo.createRecord', {
      status: 400,
      json: {
        error: 'InvalidRequest',
        message: 'Invalid app.bsky.feed.post record: Record/text must not be longer than 300 graphemes',
      },
    })
    clock.set('2026-11-21T10:10:00Z')
    await runDue(t, t.publishQueue)
    expect((await getPost(t, p.id)).targets[0]).toMatchObject({
      status: 'FAILED',
      error: {
        code: 'rejected',
        message:
          'OPENPROTOCOL_NET: Invalid app.bsky.feed.post record: Record/text must not be longer than 300 graphemes',
      },
    })
    expect(fake.posts()).toHaveLength(0)
  })

  it('renews an expired session with the refresh token, and marks the account EXPIRED when the app password is revoked', async () => {
    const { t, clock, fake, acct } = await setup()
    await createPost(t, acct.id, { caption: 'first' })
    await runDue(t, t.publishQueue)
    const first = (await storedCreds(t, acct.id)).creds.session as { refreshJwt: string; accessJwt: string }
    // Two hours later the access token is past its exp: the refresh token renews it (and rotates).
    clock.set('2026-11-21T12:00:00Z')
    await createPost(t, acct.id, { caption: 'second' })
    await runDue(t, t.publishQueue)
    const second = (await storedCreds(t, acct.id)).creds.session as { refreshJwt: string }
    expect(fake.pds.calls('POST', '/xrpc/com.atproto.server.refreshSession')).toHaveLength(1)
    expect(fake.state.createSessions).toBe(1)
    expect(second.refreshJwt).not.toBe(first.refreshJwt)
    expect(fake.posts()).toHaveLength(2)
    // The server revokes the tokens (ExpiredToken mid-publish): one forced renewal, then success.
    fake.revokeAccessTokens()
    await createPost(t, acct.id, { caption: 'third' })
    await runDue(t, t.publishQueue)
    expect(fake.posts()).toHaveLength(3)
    // Refresh token revoked and app password revoked: the account needs reconnecting.
    fake.revokeAccessTokens()
    fake.revokeRefreshTokens()
    fake.failNext('com.atproto.server.createSession', {
      status: 401,
      json: { error: 'AuthenticationRequired', message: 'Invalid identifier or password' },
    })
    const p = await createPost(t, acct.id, { caption: 'fourth' })
    await runDue(t, t.publishQueue)
    expect((await getPost(t, p.id)).targets[0]).toMatchObject({
      status: 'FAILED',
      error: { code: 'auth_expired', message: expect.stringContaining('reconnect') },
    })
    const { row } = await storedCreds(t, acct.id)
    expect(row.status).toBe('EXPIRED')
    expect(row.statusMessage).toMatch(/reconnect the account.*Invalid identifier or password/)
  })

  it('resumes a thread after a failure mid-way without posting any part twice', async () => {
    const { t, clock, fake, acct } = await setup()
    fake.failNext(
      'com.atproto.repo.createRecord',
      { status: 503, json: { error: 'InternalServerError', message: 'Internal Server Error' } },
      2,
    )
    const p = await createPost(t, acct.id, { caption: 'one', threadParts: ['two', 'three', 'four'] })
    await runDue(t, t.publishQueue)
    expect(fake.posts().map((r) => r.value.text)).toEqual(['one', 'two'])
    clock.set('2026-11-21T10:05:00Z')
    await runDue(t, t.publishQueue)
    expect((await getPost(t, p.id)).status).toBe('PUBLISHED')
    expect(fake.posts().map((r) => r.value.text)).toEqual(['one', 'two', 'three', 'four'])
    expect(fake.posts()[2]!.value.reply.parent.uri).toBe(fake.posts()[1]!.uri)
  })

  it('never posts twice when an answer is lost: the taken record key is read back (RecordAlreadyExists, or a 500 from older servers)', async () => {
    const { t, clock, fake, acct } = await setup()
    // The post is made but the answer is lost; reading it back at once also fails: the attempt is retried later.
    for (const [i, caption] of ['once only', 'also once'].entries()) {
      fake.duplicateAs500(i === 1)
      fake.loseNextCreate()
      fake.failNext('com.atproto.repo.getRecord', {
        status: 503,
        json: { error: 'InternalServerError', message: 'Internal Server Error' },
      })
      const p = await createPost(t, acct.id, { caption })
      await runDue(t, t.publishQueue)
      expect((await getPost(t, p.id)).targets[0]).toMatchObject({ status: 'PENDING', error: { code: 'transient' } })
      clock.set(new Date(clock.now().getTime() + 5 * 60_000).toISOString())
      await runDue(t, t.publishQueue)
      const after = await getPost(t, p.id)
      expect(after.status).toBe('PUBLISHED')
      expect(fake.posts()).toHaveLength(i + 1)
      expect(after.targets[0].platformPostId).toBe(fake.posts()[i]!.uri)
    }
    expect(fake.pds.calls('POST', '/xrpc/com.atproto.repo.createRecord')).toHaveLength(4)
  })

  it('answers an unconfirmed publish from the record key: published when it exists, absent when not', async () => {
    const { t, clock, fake, acct } = await setup()
    const p1 = await createPost(t, acct.id, { caption: 'made before the crash' })
    const p2 = await createPost(t, acct.id, { caption: 'never made' })
    const [d1, d2] = t.publishQueue.takeDue(new Date(8.64e15))
    // Both claimed, then the process dies; the first had reached the network.
    const c1 = await claimTarget(t.deps.db, d1!.targetId, d1!.version, clock.now(), 60)
    await claimTarget(t.deps.db, d2!.targetId, d2!.version, clock.now(), 60)
    const { creds } = await storedCreds(t, acct.id)
    const refresh = await adapter(t).credentialRefresh!.refresh({
      connection: 'APP_PASSWORD',
      credentials: creds,
      fetch,
      baseUrl: fake.url,
      now: clock.now(),
    })
    if (refresh.status !== 'refreshed') throw new Error('no session')
    await adapter(t).publish({
      idempotencyKey: c1!.target.id,
      accountId: acct.id,
      connection: 'APP_PASSWORD',
      credentials: refresh.credentials,
      content: {
        platform: 'OPENPROTOCOL_NET',
        type: 'IMAGE',
        text: 'made before the crash',
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
      baseUrl: fake.url,
      now: clock.now(),
    })
    expect(fake.posts()).toHaveLength(1)
    clock.set('2026-11-21T10:02:00Z')
    expect(await sweepTargets(t.deps, { workspaceId: t.workspaceId })).toMatchObject({ confirmed: 2, unconfirmed: 0 })
    expect((await getPost(t, p1.id)).targets[0]).toMatchObject({
      status: 'PUBLISHED',
      platformPostId: fake.posts()[0]!.uri,
    })
    expect((await getPost(t, p2.id)).targets[0].status).toBe('PENDING')
    await runDue(t, t.publishQueue)
    expect((await getPost(t, p2.id)).status).toBe('PUBLISHED')
    expect(fake.posts().map((r) => r.value.text)).toEqual(['made before the crash', 'never made'])
  })

  it('reads followers and per-post metrics (no views or saves), and deletes a post', async () => {
    const { t, clock, fake, acct } = await setup()
    const p = await createPost(t, acct.id, { caption: 'measured' })
    await runDue(t, t.publishQueue)
    const uri = fake.posts()[0]!.uri
    fake.state.counts.set(uri, { likeCount: 5, replyCount: 2, repostCount: 3, quoteCount: 1 })
    const { creds } = await storedCreds(t, acct.id)
    const base = {
      accountId: acct.id,
      connection: 'APP_PASSWORD',
      credentials: creds,
      fetch,
      baseUrl: fake.url,
      now: clock.now(),
    }
    const insights = await adapter(t).fetchInsights!({
      ...base,
      posts: [{ targetId: 'tgt_1', platformPostId: uri, publishedAt: clock.now() }],
    })
    expect(insights).toEqual({
      followers: 42,
      posts: [{ targetId: 'tgt_1', likes: 5, comments: 2, shares: 4, views: null, saves: null }],
    })
    await adapter(t).deletePost!({
      connection: 'APP_PASSWORD',
      credentials: creds,
      platformPostId: uri,
      fetch,
      baseUrl: fake.url,
      now: t.deps.clock.now(),
    })
    expect(fake.posts()).toHaveLength(0)
    expect(p.id).toBeTruthy()
  })

  it('reports a figure the network leaves out of a post view as null, never 0', async () => {
    const { t, clock, fake, acct } = await setup()
    await createPost(t, acct.id, { caption: 'half measured' })
    await runDue(t, t.publishQueue)
    const uri = fake.posts()[0]!.uri
    // The post view's counts are optional in the lexicon: this server sends likes only.
    fake.state.counts.set(uri, { likeCount: 7, replyCount: undefined, repostCount: undefined, quoteCount: undefined })
    const { creds } = await storedCreds(t, acct.id)
    const insights = await adapter(t).fetchInsights!({
      accountId: acct.id,
      connection: 'APP_PASSWORD',
      credentials: creds,
      posts: [{ targetId: 'tgt_1', platformPostId: uri, publishedAt: clock.now() }],
      fetch,
      baseUrl: fake.url,
      now: clock.now(),
    })
    expect(insights.posts).toEqual([
      { targetId: 'tgt_1', likes: 7, comments: null, shares: null, views: null, saves: null },
    ])
  })
})
