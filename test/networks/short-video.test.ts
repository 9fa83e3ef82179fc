import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { accounts, targets } from '../../src/db/schema'
import { createShortVideoAdapter } from '../../src/networks/adapters/short-video'
import { CHUNKS, chunkPlan, publicPostIds } from '../../src/networks/adapters/short-video/api'
import { DEFAULT_NETWORK_ORIGINS } from '../../src/config'
import { connectAccount } from '../../src/services/accounts/connection'
import type { PublishInput } from '../../src/networks/adapter'
import { startShortVideoFake, tiktokError } from '../fakes/short-video'
import { fixedClock, realAccount, storedMedia } from '../support/fixtures'
import { runDue } from '../support/engine'
import { createTestApp, type TestApp } from '../support/test-app'
import { jpeg, paint } from '../support/media'

const START = '2026-11-21T10:00:00Z'
const clients = { SHORTVIDEO_NET: { clientId: 'tt_client', clientSecret: 'tt_secret' } }
const MB = 1024 * 1024

async function setup() {
  const fake = await startShortVideoFake()
  const clock = fixedClock(START)
  const t = await createTestApp({ clock, networks: { origins: { SHORTVIDEO_NET_API_URL: fake.url }, clients } })
  const creds = (over: Record<string, unknown> = {}) => ({
    accessToken: fake.state.accessToken,
    refreshToken: fake.state.refreshToken,
    expiresAt: '2026-11-21T12:00:00Z',
    openId: 'open_123',
    ...over,
  })
  const account = await realAccount(t, 'SHORTVIDEO_NET', 'DIRECT_LOGIN', creds(), 'open_123')
  const later = async (seconds: number) => {
    clock.set(new Date(clock.now().getTime() + seconds * 1000).toISOString())
    return runDue(t, t.publishQueue)
  }
  return { fake, clock, t, account, creds, later }
}

const videoBytes = (n = 300_000) => Uint8Array.from({ length: n }, (_, i) => (i * 7) % 251)
const getPost = async (t: TestApp, id: string) => (await t.call('GET', `/v1/posts/${id}`)).json()
const publish = async (t: TestApp, body: Record<string, unknown>) => {
  const res = await t.call('POST', '/v1/posts', { body: { type: 'REEL', action: 'now', ...body } })
  expect([200, 201]).toContain(res.status)
  return res.json()
}
const accountRow = async (t: TestApp, id: string) =>
  (await t.deps.db.select().from(accounts).where(eq(accounts.id, id)))[0]!
const targetRow = async (t: TestApp, id: string) =>
  (await t.deps.db.select().from(targets).where(eq(targets.id, id)))[0]!

describe('SHORTVIDEO_NET adapter (Content Posting API)', () => {
  it('verifies credentials: the identity and handle from user info; refused tokens and another account are refused', async () => {
    const { t, fake, creds } = await setup()
    const added = await connectAccount(t.deps, {
      workspaceId: t.workspaceId,
      platform: 'SHORTVIDEO_NET',
      connection: 'DIRECT_LOGIN',
      credentials: creds(),
    })
    expect(added).toMatchObject({ username: 'dancer' })
    expect((await accountRow(t, added.id)).externalId).toBe('open_123')
    const stored = await t.deps.cipher.decrypt((await accountRow(t, added.id)).credentials, added.id)
    expect(stored).toMatchObject({ openId: 'open_123', username: 'dancer' })
    expect(fake.calls('GET', '/v2/user/info/')[0]!.query.get('fields')).toBe('open_id,display_name,username')
    await expect(
      connectAccount(t.deps, {
        workspaceId: t.workspaceId,
        platform: 'SHORTVIDEO_NET',
        connection: 'DIRECT_LOGIN',
        credentials: creds({ accessToken: 'wrong' }),
      }),
    ).rejects.toThrow(/access token is invalid/)
    await expect(
      connectAccount(t.deps, {
        workspaceId: t.workspaceId,
        platform: 'SHORTVIDEO_NET',
        connection: 'DIRECT_LOGIN',
        credentials: creds({ openId: 'someone_else' }),
      }),
    ).rejects.toThrow(/another account/)
  })

  it('publishes a video: creator settings applied, bytes uploaded with Content-Range, pending until PUBLISH_COMPLETE, one init only', async () => {
    const { t, fake, account, later } = await setup()
    const bytes = videoBytes()
    const media = await storedMedia(t, { bytes, mimeType: 'video/mp4', width: 1080, height: 1920, durationSec: 20 })
    const post = await publish(t, {
      caption: 'Dance <b>#fyp</b> @friend',
      accountIds: [account.id],
      mediaIds: [media],
      videoNetOptions: {
        [account.id]: { privacyLevel: 'PUBLIC_TO_EVERYONE', disableComment: true, brandOrganicToggle: true },
      },
    })
    expect(await runDue(t, t.publishQueue)).toEqual(['pending'])
    expect(fake.state.posts).toHaveLength(1)
    const sent = fake.state.posts[0]!
    expect(sent.postInfo).toEqual({
      title: 'Dance <b>#fyp</b> @friend',
      privacy_level: 'PUBLIC_TO_EVERYONE',
      disable_comment: true,
      disable_duet: true,
      disable_stitch: false,
      brand_content_toggle: false,
      brand_organic_toggle: true,
    })
    expect(sent.sourceInfo).toEqual({
      source: 'FILE_UPLOAD',
      video_size: bytes.length,
      chunk_size: bytes.length,
      total_chunk_count: 1,
    })
    expect(Buffer.compare(sent.bytes, Buffer.from(bytes))).toBe(0)
    expect(fake.calls('PUT', '/video/')[0]!.headers['content-range']).toBe(
      `bytes 0-${bytes.length - 1}/${bytes.length}`,
    )
    const pending = await targetRow(t, post.targets[0].id)
    expect(pending.progress).toMatchObject({
      shortVideo: { publishId: sent.publishId, uploaded: true },
      pending: { publishId: sent.publishId },
    })
    expect(await later(15)).toEqual(['pending'])
    expect(await later(15)).toEqual(['published'])
    const after = await getPost(t, post.id)
    expect(after.targets[0]).toMatchObject({
      status: 'PUBLISHED',
      platformPostId: sent.publicId,
      permalink: `https://www.tiktok.com/@dancer/video/${sent.publicId}`,
    })
    expect(fake.calls('POST', '/v2/post/publish/video/init/')).toHaveLength(1)
  })

  it('publishes photos by URL: TikTok downloads our stored JPEGs; the caption is the description', async () => {
    const { t, fake, account, later } = await setup()
    const one = await jpeg(paint(1080, 1350, () => [200, 10, 10]))
    const two = await jpeg(paint(1080, 1350, () => [10, 200, 10]))
    const ids = [
      await storedMedia(t, { bytes: one, mimeType: 'image/jpeg' }),
      await storedMedia(t, { bytes: two, mimeType: 'image/jpeg' }),
    ]
    const post = await publish(t, { caption: 'Two photos', accountIds: [account.id], mediaIds: ids })
    expect(await runDue(t, t.publishQueue)).toEqual(['pending'])
    const sent = fake.state.posts[0]!
    expect(sent.kind).toBe('PHOTO')
    expect(sent.photos.map((b) => Buffer.compare(b, Buffer.from([one, two][sent.photos.indexOf(b)]!)))).toEqual([0, 0])
    expect(sent.postInfo).toEqual({
      description: 'Two photos',
      privacy_level: 'SELF_ONLY',
      disable_comment: false,
      auto_add_music: true,
    })
    expect(sent.sourceInfo).toMatchObject({ source: 'PULL_FROM_URL', photo_cover_index: 0 })
    fake.state.givePublicId = false
    await later(15)
    await later(15)
    const after = await getPost(t, post.id)
    expect(after.targets[0]).toMatchObject({
      status: 'PUBLISHED',
      platformPostId: sent.publishId,
      permalink: 'https://www.tiktok.com/@dancer',
    })
    expect((await targetRow(t, post.targets[0].id)).warnings).toEqual([
      expect.stringMatching(/not made the post public yet/),
    ])
  })

  it('rejects a privacy level the creator does not offer, naming the allowed ones, before any upload', async () => {
    const { t, fake, account } = await setup()
    fake.state.creator.privacy_level_options = ['SELF_ONLY']
    const media = await storedMedia(t, { bytes: videoBytes(), mimeType: 'video/mp4', durationSec: 20 })
    const post = await publish(t, {
      caption: 'x',
      accountIds: [account.id],
      mediaIds: [media],
      videoNetOptions: { [account.id]: { privacyLevel: 'PUBLIC_TO_EVERYONE' } },
    })
    expect(await runDue(t, t.publishQueue)).toEqual(['failed'])
    const after = await getPost(t, post.id)
    expect(after.targets[0].error).toMatchObject({
      code: 'rejected',
      message: expect.stringMatching(/PUBLIC_TO_EVERYONE is not offered.*allows SELF_ONLY/),
    })
    expect(fake.state.posts).toHaveLength(0)
  })

  it("rejects a video longer than the creator's maximum duration", async () => {
    const { t, fake, account } = await setup()
    fake.state.creator.max_video_post_duration_sec = 60
    const media = await storedMedia(t, { bytes: videoBytes(), mimeType: 'video/mp4', durationSec: 90 })
    const post = await publish(t, { caption: 'long', accountIds: [account.id], mediaIds: [media] })
    await runDue(t, t.publishQueue)
    expect((await getPost(t, post.id)).targets[0].error.message).toMatch(
      /lasts 90 s; this account may post at most 60 s/,
    )
    expect(fake.state.posts).toHaveLength(0)
  })

  it("turns a FAILED job into a rejection with TikTok's reason in words", async () => {
    const { t, fake, account, later } = await setup()
    fake.state.failJobWith = 'frame_rate_check_failed'
    const media = await storedMedia(t, { bytes: videoBytes(), mimeType: 'video/mp4', durationSec: 20 })
    const post = await publish(t, { caption: 'x', accountIds: [account.id], mediaIds: [media] })
    await runDue(t, t.publishQueue)
    await later(15)
    expect(await later(15)).toEqual(['failed'])
    expect((await getPost(t, post.id)).targets[0].error).toMatchObject({
      code: 'rejected',
      message: expect.stringMatching(/frame rate must be between 23 and 60/),
    })
  })

  it('waits as asked on rate_limit_exceeded (Retry-After) or a minute without it; 5xx is transient', async () => {
    const { t, fake, account } = await setup()
    const media = await storedMedia(t, { bytes: videoBytes(), mimeType: 'video/mp4', durationSec: 20 })
    fake.failNext(
      tiktokError(429, 'rate_limit_exceeded', 'API rate limit exceeded.'),
      '/v2/post/publish/creator_info/query/',
    )
    const post = await publish(t, { caption: 'x', accountIds: [account.id], mediaIds: [media] })
    expect(await runDue(t, t.publishQueue)).toEqual(['retrying'])
    const row = await targetRow(t, post.targets[0].id)
    expect(row.error).toMatchObject({ code: 'rate_limited', message: expect.stringMatching(/too many requests/) })
    expect(row.dueAt!.getTime() - new Date(START).getTime()).toBeGreaterThanOrEqual(60_000)
    const adapter = createShortVideoAdapter({
      clients,
      origins: { ...DEFAULT_NETWORK_ORIGINS, SHORTVIDEO_NET_API_URL: fake.url },
    })
    fake.failNext({
      ...tiktokError(429, 'spam_risk_too_many_posts', 'Too many posts.'),
      headers: { 'retry-after': '900' },
    })
    const input = directInput(fake.url, fake.state.accessToken)
    expect(await adapter.publish(input)).toMatchObject({
      status: 'failed',
      kind: 'rate_limited',
      retryAfterSec: 900,
      message: expect.stringMatching(/daily posting limit/),
    })
    fake.failNext({ status: 503, body: 'upstream unavailable' })
    expect(await adapter.publish(input)).toMatchObject({ status: 'failed', kind: 'transient' })
  })

  it('refreshes a due token before publishing and stores the rotated refresh token', async () => {
    const { t, fake, account, creds } = await setup()
    await t.deps.db
      .update(accounts)
      .set({ credentials: await t.deps.cipher.encrypt(creds({ expiresAt: '2026-11-21T10:02:00Z' }), account.id) })
      .where(eq(accounts.id, account.id))
    const media = await storedMedia(t, { bytes: videoBytes(), mimeType: 'video/mp4', durationSec: 20 })
    await publish(t, { caption: 'x', accountIds: [account.id], mediaIds: [media] })
    expect(await runDue(t, t.publishQueue)).toEqual(['pending'])
    const form = fake.calls('POST', '/v2/oauth/token/')[0]!.form()
    expect(Object.fromEntries(form)).toEqual({
      client_key: 'tt_client',
      client_secret: 'tt_secret',
      grant_type: 'refresh_token',
      refresh_token: 'tt_refresh_1',
    })
    const stored = await t.deps.cipher.decrypt((await accountRow(t, account.id)).credentials, account.id)
    expect(stored).toMatchObject({
      accessToken: 'tt_access_2',
      refreshToken: 'tt_refresh_2',
      expiresAt: '2026-11-21T12:00:00.000Z',
      openId: 'open_123',
    })
  })

  it('renews a token TikTok calls invalid once; a refused refresh marks the account EXPIRED with a reconnect message', async () => {
    const { t, fake, account } = await setup()
    const media = await storedMedia(t, { bytes: videoBytes(), mimeType: 'video/mp4', durationSec: 20 })
    fake.expireToken()
    await publish(t, { caption: 'x', accountIds: [account.id], mediaIds: [media] })
    expect(await runDue(t, t.publishQueue)).toEqual(['pending'])
    expect(fake.state.posts).toHaveLength(1)
    fake.expireToken()
    fake.state.refreshToken = 'revoked'
    const second = await publish(t, { caption: 'y', accountIds: [account.id], mediaIds: [media] })
    expect(await runDue(t, t.publishQueue)).toEqual(['failed'])
    const row = await accountRow(t, account.id)
    expect(row.status).toBe('EXPIRED')
    expect(row.statusMessage).toMatch(/reconnect the account.*refresh token was refused/)
    expect((await getPost(t, second.id)).targets[0].error.code).toBe('auth_expired')
    const stored = await t.deps.cipher.decrypt(row.credentials, account.id)
    expect(stored.refreshToken).toBe('tt_refresh_2')
  })

  it('never inits twice: an upload that failed mid-way is sent again into the same publish id', async () => {
    const { t, fake, account, later } = await setup()
    const media = await storedMedia(t, { bytes: videoBytes(), mimeType: 'video/mp4', durationSec: 20 })
    fake.failNext({ status: 500, json: { error: { code: 'internal_error', message: 'upload failed' } } }, '/video/')
    const post = await publish(t, { caption: 'x', accountIds: [account.id], mediaIds: [media] })
    expect(await runDue(t, t.publishQueue)).toEqual(['retrying'])
    const row = await targetRow(t, post.targets[0].id)
    expect(row.progress).toMatchObject({ shortVideo: { publishId: fake.state.posts[0]!.publishId, uploaded: false } })
    expect(await later(3600)).toEqual(['pending'])
    await later(15)
    expect(await later(15)).toEqual(['published'])
    expect(fake.calls('POST', '/v2/post/publish/video/init/')).toHaveLength(1)
    expect(fake.state.posts).toHaveLength(1)
  })

  it('answers an unconfirmed publish from what it saved: absent before init, unknown during it, the status after', async () => {
    const { fake } = await setup()
    const adapter = createShortVideoAdapter({
      clients,
      origins: { ...DEFAULT_NETWORK_ORIGINS, SHORTVIDEO_NET_API_URL: fake.url },
    })
    const input = directInput(fake.url, fake.state.accessToken)
    expect(await adapter.checkStatus!({ ...input, unconfirmed: true })).toEqual({ status: 'absent' })
    expect(
      await adapter.checkStatus!({ ...input, progress: { shortVideo: { initStarted: true } }, unconfirmed: true }),
    ).toMatchObject({ status: 'failed', kind: 'transient' })
    const started = await adapter.publish(input)
    expect(started).toMatchObject({ status: 'pending' })
    const progress = { shortVideo: { initStarted: true, publishId: fake.state.posts[0]!.publishId } }
    expect(await adapter.checkStatus!({ ...input, progress, unconfirmed: true })).toMatchObject({ status: 'pending' })
    expect(fake.state.posts).toHaveLength(1)
    expect(adapter.fetchInsights).toBeUndefined()
    expect(adapter.deletePost).toBeUndefined()
  })

  it('reads publicaly_available_post_id (list<int64>) exactly, beyond JS number precision', () => {
    expect(
      publicPostIds('{"data":{"status":"PUBLISH_COMPLETE","publicaly_available_post_id":[7301234567890123457]}}'),
    ).toEqual(['7301234567890123457'])
    expect(publicPostIds('{"data":{"publicaly_available_post_id":["7301234567890123457", 42]}}')).toEqual([
      '7301234567890123457',
      '42',
    ])
    expect(publicPostIds('{"data":{"publicaly_available_post_id":[]}}')).toEqual([])
  })

  it('plans FILE_UPLOAD chunks by the documented rules', () => {
    expect(chunkPlan(3 * MB)).toEqual({ chunkSize: 3 * MB, totalChunkCount: 1, ranges: [[0, 3 * MB - 1]] })
    const mid = chunkPlan(25 * MB)
    expect(mid).toMatchObject({ chunkSize: 10 * MB, totalChunkCount: 2 })
    expect(mid.ranges).toEqual([
      [0, 10 * MB - 1],
      [10 * MB, 25 * MB - 1],
    ])
    const big = chunkPlan(4 * 1024 * MB)
    expect(big.chunkSize).toBeGreaterThanOrEqual(CHUNKS.minBytes)
    expect(big.chunkSize).toBeLessThanOrEqual(CHUNKS.maxBytes)
    expect(big.totalChunkCount).toBeLessThanOrEqual(1000)
    expect(big.ranges.at(-1)![1]).toBe(4 * 1024 * MB - 1)
    const huge = chunkPlan(64 * 1000 * MB + 63 * MB)
    expect(huge.chunkSize).toBe(64 * MB)
    expect(huge.totalChunkCount).toBe(1000)
    const last = huge.ranges.at(-1)!
    expect(last[1] - last[0] + 1).toBeLessThanOrEqual(128 * MB)
  })
})

/** A publish input straight to the adapter, for answers the engine does not show directly. */
function directInput(baseUrl: string, accessToken: string): PublishInput {
  const bytes = videoBytes(1000)
  const url = `data:video/mp4;base64,${Buffer.from(bytes).toString('base64')}`
  return {
    idempotencyKey: 'target_1',
    accountId: 'acc_1',
    connection: 'DIRECT_LOGIN',
    credentials: {
      accessToken,
      refreshToken: 'r',
      expiresAt: '2026-11-21T12:00:00Z',
      openId: 'open_123',
      username: 'dancer',
    },
    content: {
      platform: 'SHORTVIDEO_NET',
      type: 'REEL',
      text: 'direct',
      media: [
        {
          id: 'm1',
          type: 'VIDEO',
          url,
          mimeType: 'video/mp4',
          sizeBytes: bytes.length,
          width: 1080,
          height: 1920,
          durationSec: 10,
          altText: null,
        },
      ],
      threadParts: [],
      firstComment: null,
      replyToMicropostId: null,
      quoteMicropostId: null,
      videoNetOptions: { privacyLevel: 'SELF_ONLY' },
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
    now: new Date(START),
  }
}
