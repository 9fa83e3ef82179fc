import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { DEFAULT_NETWORK_ORIGINS } from '../../src/config'
import { accounts, targets } from '../../src/db/schema'
import type { PublishInput, PublishProgress } from '../../src/networks/adapter'
import { createVideoShareAdapter } from '../../src/networks/adapters/video-share'
import { UPLOAD_CHUNK_BYTES, secondsToPacificMidnight, videoText } from '../../src/networks/adapters/video-share/api'
import { connectAccount } from '../../src/services/accounts/connection'
import { googleError, startVideoShareFake } from '../fakes/video-share'
import { runDue } from '../support/engine'
import { fixedClock, realAccount, storedMedia } from '../support/fixtures'
import { createTestApp, type TestApp } from '../support/test-app'

const START = '2026-11-21T10:00:00Z'
const clients = { VIDEOSHARE_NET: { clientId: 'yt_client', clientSecret: 'yt_secret' } }

async function setup() {
  const fake = await startVideoShareFake()
  const clock = fixedClock(START)
  const origins = { VIDEOSHARE_NET_API_URL: fake.url, VIDEOSHARE_NET_OAUTH_URL: fake.url }
  const t = await createTestApp({ clock, networks: { origins, clients } })
  const creds = (over: Record<string, unknown> = {}) => ({
    accessToken: fake.state.accessToken,
    refreshToken: fake.state.refreshToken,
    expiresAt: '2026-11-21T11:00:00Z',
    channelId: 'UC_channel_1',
    ...over,
  })
  const account = await realAccount(t, 'VIDEOSHARE_NET', 'DIRECT_LOGIN', creds(), 'UC_channel_1')
  const later = async (seconds: number) => {
    clock.set(new Date(clock.now().getTime() + seconds * 1000).toISOString())
    return runDue(t, t.publishQueue)
  }
  const adapter = createVideoShareAdapter({ clients, origins: { ...DEFAULT_NETWORK_ORIGINS, ...origins } })
  return { fake, clock, t, account, creds, later, adapter }
}

const videoBytes = (n = 300_000) => Uint8Array.from({ length: n }, (_, i) => (i * 13) % 253)
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

describe('VIDEOSHARE_NET adapter (YouTube Data API v3)', () => {
  it('verifies credentials: the channel id must match; its title is the username; refused tokens are refused', async () => {
    const { t, creds } = await setup()
    const added = await connectAccount(t.deps, {
      workspaceId: t.workspaceId,
      platform: 'VIDEOSHARE_NET',
      connection: 'DIRECT_LOGIN',
      credentials: creds(),
    })
    expect(added.username).toBe('My Channel')
    expect((await accountRow(t, added.id)).externalId).toBe('UC_channel_1')
    await expect(
      connectAccount(t.deps, {
        workspaceId: t.workspaceId,
        platform: 'VIDEOSHARE_NET',
        connection: 'DIRECT_LOGIN',
        credentials: creds({ accessToken: 'nope' }),
      }),
    ).rejects.toThrow(/invalid authentication credentials/)
    await expect(
      connectAccount(t.deps, {
        workspaceId: t.workspaceId,
        platform: 'VIDEOSHARE_NET',
        connection: 'DIRECT_LOGIN',
        credentials: creds({ channelId: 'UC_other' }),
      }),
    ).rejects.toThrow(/another channel/)
  })

  it('uploads through a resumable session, saves the video id at once, and publishes when processing ends', async () => {
    const { t, fake, account, later } = await setup()
    const bytes = videoBytes()
    const media = await storedMedia(t, { bytes, mimeType: 'video/mp4', width: 1080, height: 1920, durationSec: 40 })
    const post = await publish(t, {
      caption: 'My trip to the lake\nA longer description\nwith #hashtags',
      accountIds: [account.id],
      mediaIds: [media],
    })
    expect(await runDue(t, t.publishQueue)).toEqual(['pending'])
    const init = fake.calls('POST', '/upload/youtube/v3/videos')[0]!
    expect(init.headers['x-upload-content-length']).toBe(String(bytes.length))
    expect(init.headers['x-upload-content-type']).toBe('video/mp4')
    expect(init.json()).toEqual({
      snippet: {
        title: 'My trip to the lake',
        description: 'My trip to the lake\nA longer description\nwith #hashtags',
        categoryId: '22',
      },
      status: { privacyStatus: 'public', selfDeclaredMadeForKids: false },
    })
    const [video] = fake.state.videos
    expect(Buffer.compare(video!.bytes, Buffer.from(bytes))).toBe(0)
    const row = await targetRow(t, post.targets[0].id)
    expect(row.progress).toMatchObject({
      headId: video!.id,
      videoShare: { sessionUri: expect.stringContaining('upload_id=sess1') },
    })
    expect(await later(30)).toEqual(['pending'])
    expect(await later(30)).toEqual(['published'])
    expect((await getPost(t, post.id)).targets[0]).toMatchObject({
      status: 'PUBLISHED',
      platformPostId: video!.id,
      permalink: `https://www.youtube.com/watch?v=${video!.id}`,
    })
  })

  it('resumes an interrupted upload from the byte YouTube reports: earlier bytes are not sent again, one video', async () => {
    const { t, fake, account, later } = await setup()
    const bytes = videoBytes(2 * UPLOAD_CHUNK_BYTES + 12345)
    const media = await storedMedia(t, { bytes, mimeType: 'video/mp4', durationSec: 40 })
    fake.failChunk(2)
    const post = await publish(t, { caption: 'Big one', accountIds: [account.id], mediaIds: [media] })
    expect(await runDue(t, t.publishQueue)).toEqual(['retrying'])
    expect((await targetRow(t, post.targets[0].id)).error).toMatchObject({
      code: 'transient',
      message: expect.stringMatching(/upload was interrupted/),
    })
    expect(await later(3600)).toEqual(['pending'])
    const ranges = fake.calls('PUT', '/upload/youtube/v3/videos').map((r) => r.headers['content-range'])
    const c = UPLOAD_CHUNK_BYTES
    expect(ranges).toEqual([
      `bytes 0-${c - 1}/${bytes.length}`,
      `bytes ${c}-${2 * c - 1}/${bytes.length}`,
      `bytes */${bytes.length}`,
      `bytes ${c}-${2 * c - 1}/${bytes.length}`,
      `bytes ${2 * c}-${bytes.length - 1}/${bytes.length}`,
    ])
    expect(fake.calls('POST', '/upload/youtube/v3/videos')).toHaveLength(1)
    expect(fake.state.videos).toHaveLength(1)
    expect(Buffer.compare(fake.state.videos[0]!.bytes, Buffer.from(bytes))).toBe(0)
  })

  it("waits until midnight Pacific on quotaExceeded; forbidden is rejected with YouTube's words; 5xx is transient", async () => {
    const { t, fake, account, adapter } = await setup()
    const media = await storedMedia(t, { bytes: videoBytes(), mimeType: 'video/mp4', durationSec: 40 })
    fake.failNext(
      googleError(403, 'quotaExceeded', 'The request cannot be completed because you have exceeded your quota.'),
    )
    const post = await publish(t, { caption: 'x', accountIds: [account.id], mediaIds: [media] })
    expect(await runDue(t, t.publishQueue)).toEqual(['retrying'])
    const row = await targetRow(t, post.targets[0].id)
    expect(row.error).toMatchObject({ code: 'rate_limited', message: expect.stringMatching(/quota is used up/) })
    // 10:00 UTC on 21 Nov is 02:00 PST: 22 h to midnight, plus a minute.
    expect(secondsToPacificMidnight(new Date(START))).toBe(22 * 3600 + 60)
    expect(row.dueAt!.toISOString()).toBe('2026-11-22T08:01:00.000Z')
    const input = directInput(fake.url, fake.state.accessToken)
    fake.failNext(googleError(403, 'forbidden', 'Access forbidden. The request may not be properly authorized.'))
    expect(await adapter.publish(input)).toEqual({
      status: 'failed',
      kind: 'rejected',
      message: 'VIDEOSHARE_NET: Access forbidden. The request may not be properly authorized.',
    })
    fake.failNext({ status: 503, body: 'Backend Error' })
    expect(await adapter.publish(input)).toMatchObject({ status: 'failed', kind: 'transient' })
  })

  it('renews the token after a 401 keeping the refresh token; invalid_grant marks the account EXPIRED', async () => {
    const { t, fake, account } = await setup()
    const media = await storedMedia(t, { bytes: videoBytes(), mimeType: 'video/mp4', durationSec: 40 })
    fake.expireToken()
    await publish(t, { caption: 'x', accountIds: [account.id], mediaIds: [media] })
    expect(await runDue(t, t.publishQueue)).toEqual(['pending'])
    expect(Object.fromEntries(fake.calls('POST', '/token')[0]!.form())).toEqual({
      client_id: 'yt_client',
      client_secret: 'yt_secret',
      refresh_token: 'yt_refresh_1',
      grant_type: 'refresh_token',
    })
    const stored = await t.deps.cipher.decrypt((await accountRow(t, account.id)).credentials, account.id)
    expect(stored).toMatchObject({
      accessToken: 'yt_access_2',
      refreshToken: 'yt_refresh_1',
      expiresAt: '2026-11-21T10:59:59.000Z',
    })
    fake.expireToken()
    fake.state.refreshToken = 'revoked'
    const second = await publish(t, { caption: 'y', accountIds: [account.id], mediaIds: [media] })
    expect(await runDue(t, t.publishQueue)).toEqual(['failed'])
    expect(await accountRow(t, account.id)).toMatchObject({
      status: 'EXPIRED',
      statusMessage: expect.stringMatching(/reconnect the account.*expired or revoked/),
    })
    expect((await getPost(t, second.id)).targets[0].error.code).toBe('auth_expired')
  })

  it('rejects a video YouTube rejected in processing, with its reason', async () => {
    const { t, fake, account, later } = await setup()
    fake.state.failProcessing = { uploadStatus: 'rejected', reason: 'duplicate' }
    const media = await storedMedia(t, { bytes: videoBytes(), mimeType: 'video/mp4', durationSec: 40 })
    const post = await publish(t, { caption: 'x', accountIds: [account.id], mediaIds: [media] })
    await runDue(t, t.publishQueue)
    await later(30)
    expect(await later(30)).toEqual(['failed'])
    expect((await getPost(t, post.id)).targets[0].error).toMatchObject({
      code: 'rejected',
      message: 'VIDEOSHARE_NET: YouTube rejected the video: it duplicates a video already on YouTube (duplicate).',
    })
  })

  it('warns when YouTube keeps the video private (unaudited project)', async () => {
    const { t, fake, account, later } = await setup()
    fake.state.forcePrivacy = 'private'
    fake.state.processingPolls = 0
    const media = await storedMedia(t, { bytes: videoBytes(), mimeType: 'video/mp4', durationSec: 40 })
    const post = await publish(t, { caption: 'x', accountIds: [account.id], mediaIds: [media] })
    await runDue(t, t.publishQueue)
    expect(await later(30)).toEqual(['published'])
    expect((await targetRow(t, post.targets[0].id)).warnings).toEqual([expect.stringMatching(/made the video private/)])
  })

  it('answers an unconfirmed publish from the upload session: absent when none or incomplete, the video when complete', async () => {
    const { fake, adapter } = await setup()
    const input = directInput(fake.url, fake.state.accessToken)
    expect(await adapter.checkStatus!({ ...input, unconfirmed: true })).toEqual({ status: 'absent' })
    let saved: Record<string, unknown> = {}
    fake.failChunk(1)
    const first = await adapter.publish({ ...input, saveProgress: async (p) => void (saved = p) })
    expect(first).toMatchObject({ status: 'failed', kind: 'transient' })
    expect(await adapter.checkStatus!({ ...input, progress: saved, unconfirmed: true })).toEqual({ status: 'absent' })
    const second = await adapter.publish({ ...input, progress: saved, saveProgress: async (p) => void (saved = p) })
    expect(second).toMatchObject({ status: 'pending' })
    const sessionOnly = { videoShare: saved.videoShare }
    const confirmed = await adapter.checkStatus!({
      ...input,
      progress: sessionOnly,
      saveProgress: async (p) => void (saved = p),
      unconfirmed: true,
    })
    expect(confirmed).toMatchObject({ status: 'pending', state: { videoId: fake.state.videos[0]!.id } })
    expect(saved.headId).toBe(fake.state.videos[0]!.id)
    expect(fake.state.videos).toHaveLength(1)
  })

  it('takes a cut-off answer to a processing check as transient, never as a deleted video', async () => {
    const { fake, adapter } = await setup()
    let saved: PublishProgress = {}
    const input = {
      ...directInput(fake.url, fake.state.accessToken),
      saveProgress: async (p: PublishProgress) => void (saved = p),
    }
    const started = await adapter.publish(input)
    expect(started).toMatchObject({ status: 'pending', state: { videoId: fake.state.videos[0]!.id } })
    const check = { ...input, progress: saved, unconfirmed: false }
    fake.failNext({
      status: 200,
      headers: { 'content-type': 'application/json; charset=UTF-8' },
      body: '{"kind":"youtube#videoListResponse","items":[{"kind":"youtube#vi',
    })
    expect(await adapter.checkStatus!(check)).toEqual({
      status: 'failed',
      kind: 'transient',
      message: 'VIDEOSHARE_NET sent an answer that is not JSON (cut off or garbled).',
    })
    // The next check gets the whole answer and goes on.
    expect(await adapter.checkStatus!(check)).toMatchObject({ status: 'pending' })
  })

  it('lets an error of its own code through instead of reporting the network unreachable', async () => {
    const { fake, adapter } = await setup()
    const input = directInput(fake.url, fake.state.accessToken)
    // A caption that is not text breaks the adapter's own title making before any upload starts.
    const bad = { ...input, content: { ...input.content, text: undefined as unknown as string } }
    await expect(adapter.publish(bad)).rejects.toBeInstanceOf(TypeError)
    expect(fake.calls('POST', '/upload/youtube/v3/videos')).toHaveLength(0)
    // A progress store that fails once the session exists: that very error goes up, untouched.
    const storeDown = new Error('progress store down')
    const failing = {
      ...input,
      saveProgress: async () => {
        throw storeDown
      },
    }
    await expect(adapter.publish(failing)).rejects.toBe(storeDown)
    // Network failures are still results of their kind.
    fake.failNext({ status: 503, body: 'Backend Error' })
    expect(await adapter.publish(input)).toMatchObject({ status: 'failed', kind: 'transient' })
  })

  it('reads insights (subscribers, hidden -> null; views, likes, comments) and deletes a video', async () => {
    const { fake, adapter } = await setup()
    const input = directInput(fake.url, fake.state.accessToken)
    await adapter.publish(input)
    const id = fake.state.videos[0]!.id
    const base = {
      accountId: 'acc_1',
      connection: 'DIRECT_LOGIN',
      credentials: input.credentials,
      fetch,
      baseUrl: fake.url,
      now: new Date(START),
    }
    const posts = [
      { targetId: 't1', platformPostId: id, publishedAt: new Date(START) },
      { targetId: 't2', platformPostId: 'gone', publishedAt: new Date(START) },
    ]
    expect(await adapter.fetchInsights!({ ...base, posts })).toEqual({
      followers: 1234,
      posts: [
        { targetId: 't1', views: 10, likes: 2, comments: 1, shares: null, saves: null },
        { targetId: 't2', views: null, likes: null, comments: null, shares: null, saves: null },
      ],
    })
    fake.state.channel.statistics.hiddenSubscriberCount = true
    expect((await adapter.fetchInsights!({ ...base, posts: [] })).followers).toBeNull()
    await adapter.deletePost!({
      connection: 'DIRECT_LOGIN',
      credentials: input.credentials,
      platformPostId: id,
      fetch,
      baseUrl: fake.url,
      now: new Date(START),
    })
    expect(fake.state.videos).toHaveLength(0)
    expect(fake.calls('DELETE', '/youtube/v3/videos')[0]!.query.get('id')).toBe(id)
  })

  it('makes the title from the first line and keeps YouTube-forbidden < > out', () => {
    expect(videoText('\n  Hello <world>  \nrest')).toEqual({
      title: 'Hello ‹world›',
      description: '\n  Hello ‹world›  \nrest',
    })
    expect(videoText('').title).toBe('Untitled')
    expect([...videoText('é'.repeat(150)).title]).toHaveLength(100)
    expect(new TextEncoder().encode(videoText('😀'.repeat(2000)).description).byteLength).toBe(5000)
  })
})

function directInput(baseUrl: string, accessToken: string): PublishInput {
  const bytes = videoBytes(UPLOAD_CHUNK_BYTES + 1000)
  const url = `data:video/mp4;base64,${Buffer.from(bytes).toString('base64')}`
  return {
    idempotencyKey: 'target_1',
    accountId: 'acc_1',
    connection: 'DIRECT_LOGIN',
    credentials: { accessToken, refreshToken: 'r', expiresAt: '2026-11-21T11:00:00Z', channelId: 'UC_channel_1' },
    content: {
      platform: 'VIDEOSHARE_NET',
      type: 'REEL',
      text: 'direct',
      media: [
        {
          id: 'm1',
          type: 'VIDEO',
          url,
          mimeType: 'video/mp4',
          sizeBytes: bytes.length,
          width: 1920,
          height: 1080,
          durationSec: 10,
          altText: null,
        },
      ],
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
    now: new Date(START),
  }
}
