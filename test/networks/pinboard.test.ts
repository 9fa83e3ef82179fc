import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { accounts, posts, targets } from '../../src/db/schema'
import type { NetworkAdapter } from '../../src/networks/adapter'
import { connectAccount } from '../../src/services/accounts/connection'
import { claimTarget } from '../../src/services/publishing/claim'
import { sweepTargets } from '../../src/services/publishing/sweep'
import { buildTargetContent } from '../../src/services/publishing/target-content'
import { startPinboardFake } from '../fakes/pinboard'
import { jpeg, mp4, paint } from '../support/media'
import { runDue } from '../support/engine'
import { fixedClock, realAccount, storedMedia } from '../support/fixtures'
import { createTestApp, type TestApp } from '../support/test-app'

const START = '2026-11-21T10:00:00Z'
const CREDS = { accessToken: 'pina_access_1', refreshToken: 'pinr_refresh_1', expiresAt: '2026-12-20T10:00:00.000Z' }
const CLIENT = { clientId: 'pin-client', clientSecret: 'pin-secret' }

async function setup(
  options: {
    withClient?: boolean
    credentials?: Record<string, unknown>
    rotateRefreshToken?: boolean
    boards?: number
  } = {},
) {
  const clock = fixedClock(START)
  const fake = await startPinboardFake({ rotateRefreshToken: options.rotateRefreshToken, boards: options.boards })
  fake.state.clock = () => clock.now()
  const t = await createTestApp({
    clock,
    networks: {
      origins: { PINBOARD_NET_API_URL: fake.url },
      clients: options.withClient === false ? {} : { PINBOARD_NET: CLIENT },
    },
    publishing: { random: () => 0.5 },
  })
  const account = await realAccount(t, 'PINBOARD_NET', 'DIRECT_LOGIN', options.credentials ?? CREDS, '7788')
  const adapter = t.deps.networks.adapterFor('PINBOARD_NET', 'DIRECT_LOGIN') as NetworkAdapter
  const advance = (sec: number) => clock.set(new Date(clock.now().getTime() + sec * 1000).toISOString())
  return { t, fake, clock, account, adapter, advance }
}

async function pin(
  t: TestApp,
  accountId: string,
  body: Record<string, unknown>,
  board: string | null = '549755813002',
) {
  const res = await t.call('POST', '/v1/posts', {
    body: {
      type: 'IMAGE',
      accountIds: [accountId],
      mediaIds: [],
      action: 'now',
      pinboardNetBoards: board ? { [accountId]: board } : null,
      ...body,
    },
  })
  const created = await res.json()
  expect(res.ok, JSON.stringify(created)).toBe(true)
  return created as { id: string }
}

const getPost = async (t: TestApp, id: string) => (await t.call('GET', `/v1/posts/${id}`)).json()
const targetOf = async (t: TestApp, postId: string) =>
  (await t.deps.db.select().from(targets).where(eq(targets.postId, postId)))[0]!
const storedCredentials = async (t: TestApp, accountId: string) => {
  const [row] = await t.deps.db.select().from(accounts).where(eq(accounts.id, accountId))
  return { row: row!, credentials: await t.deps.cipher.decrypt(row!.credentials, accountId) }
}
const image = async (t: TestApp, color: [number, number, number], altText: string | null = null) => {
  const bytes = await jpeg(paint(60, 90, () => color))
  return { bytes, id: await storedMedia(t, { bytes, mimeType: 'image/jpeg', width: 1000, height: 1500, altText }) }
}

describe('PINBOARD_NET adapter (Pinterest API v5)', () => {
  it('verifies the token: the username and account id, and refuses a bad token', async () => {
    const { t, fake } = await setup()
    const added = await connectAccount(t.deps, {
      workspaceId: t.workspaceId,
      platform: 'PINBOARD_NET',
      connection: 'DIRECT_LOGIN',
      credentials: CREDS,
    })
    expect(added).toMatchObject({ username: 'cornerbakery', platform: 'PINBOARD_NET' })
    expect(fake.calls('GET', '/v5/user_account')[0]!.headers.authorization).toBe('Bearer pina_access_1')
    fake.expireAccessToken()
    await expect(
      connectAccount(t.deps, {
        workspaceId: t.workspaceId,
        platform: 'PINBOARD_NET',
        connection: 'DIRECT_LOGIN',
        credentials: CREDS,
      }),
    ).rejects.toThrow(/did not confirm.*Authentication failed/)
  })

  it('lists every board through the app, following the bookmark pages', async () => {
    const { t, fake, account } = await setup({ boards: 5 })
    fake.state.maxPageSize = 2
    const res = await t.call('GET', `/v1/accounts/${account.id}/boards`)
    expect(res.status).toBe(200)
    const body = await res.json()
    const boards = Array.isArray(body) ? body : (body.data ?? body.boards)
    expect(boards.map((b: { id: string }) => b.id)).toEqual([
      '549755813001',
      '549755813002',
      '549755813003',
      '549755813004',
      '549755813005',
    ])
    expect(boards[0]).toMatchObject({ name: 'Board 1', privacy: 'SECRET' })
    expect(fake.calls('GET', '/v5/boards').map((r) => [r.query.get('page_size'), r.query.get('bookmark')])).toEqual([
      ['250', null],
      ['250', '2'],
      ['250', '4'],
    ])
  })

  it('answers a boards request the network refuses in its words, never a 500', async () => {
    const { t, fake, account } = await setup()
    fake.expireAccessToken()
    const res = await t.call('GET', `/v1/accounts/${account.id}/boards`)
    expect(res.status).toBe(422)
    const body = await res.json()
    expect(body.error).toMatchObject({
      code: 'invalid_option',
      message: expect.stringMatching(/The boards could not be listed: PINBOARD_NET: .*reconnect the account/),
    })
    fake.failNextError(
      429,
      8,
      'You have exceeded your rate limit. Try again later.',
      { 'retry-after': '120' },
      /\/v5\/boards/,
    )
    fake.state.accessToken = fake.state.accessToken.replace(/-expired$/, '')
    const limited = await t.call('GET', `/v1/accounts/${account.id}/boards`)
    expect(limited.status).toBe(429)
    expect(limited.headers.get('retry-after')).toBe('120')
  })

  it('pins one image the network fetches from our storage, with title, description, link and alt text', async () => {
    const { t, fake, account } = await setup()
    const photo = await image(t, [180, 20, 20], 'A red loaf on a board')
    const p = await pin(t, account.id, {
      caption: 'Red velvet loaf\nRecipe inside',
      mediaIds: [photo.id],
      linkUrl: 'https://bakery.example/red',
      pinboardNetOptions: { title: 'Red velvet' },
    })
    await runDue(t, t.publishQueue)
    const target = (await getPost(t, p.id)).targets[0]
    expect(target).toMatchObject({
      status: 'PUBLISHED',
      permalink: `https://www.pinterest.com/pin/${target.platformPostId}/`,
    })
    const made = fake.state.pins.get(target.platformPostId)!
    expect(made).toMatchObject({
      board_id: '549755813002',
      title: 'Red velvet',
      description: 'Red velvet loaf\nRecipe inside',
      link: 'https://bakery.example/red',
      alt_text: 'A red loaf on a board',
      media_source: { source_type: 'image_url' },
    })
    expect(Buffer.compare(made.images[0]!, Buffer.from(photo.bytes))).toBe(0)
  })

  it("pins 2 to 5 images as a carousel; the title defaults to the caption's first line", async () => {
    const { t, fake, account } = await setup()
    const photos = [await image(t, [1, 1, 200]), await image(t, [1, 200, 1]), await image(t, [200, 1, 1])]
    const p = await pin(t, account.id, {
      type: 'CAROUSEL',
      caption: 'Three loaves\nand more',
      mediaIds: photos.map((x) => x.id),
    })
    await runDue(t, t.publishQueue)
    const made = fake.state.pins.get((await getPost(t, p.id)).targets[0].platformPostId)!
    expect(made.media_source.source_type).toBe('multiple_image_urls')
    expect(made.title).toBe('Three loaves')
    expect(made.images.map((b, i) => Buffer.compare(b, Buffer.from(photos[i]!.bytes)))).toEqual([0, 0, 0])
  })

  it('refuses a pin without a board, naming what to set', async () => {
    const { t, fake, account, adapter } = await setup()
    const photo = await image(t, [9, 9, 9])
    const p = await pin(t, account.id, { caption: 'Nowhere', mediaIds: [photo.id] })
    const [d] = t.publishQueue.takeDue(new Date(8.64e15))
    const [row] = await t.deps.db.select().from(posts).where(eq(posts.id, p.id))
    // A board removed from the post after it was accepted (or an older post): refused, never guessed.
    const content = {
      ...(await buildTargetContent(t.deps.db, row!, account.id, 'PINBOARD_NET')),
      pinboardBoardId: null,
    }
    const result = await adapter.publish({
      idempotencyKey: d!.targetId,
      accountId: account.id,
      connection: 'DIRECT_LOGIN',
      credentials: CREDS,
      content,
      progress: {},
      saveProgress: async () => {},
      attempt: 1,
      fetch,
      baseUrl: fake.url,
      now: new Date(START),
    })
    expect(result).toEqual({
      status: 'failed',
      kind: 'rejected',
      message: 'PINBOARD_NET: choose a board for this account (pinboardNetBoards).',
    })
    expect(fake.calls('POST', '/v5/pins')).toHaveLength(0)
  })

  it('uploads a video once to the presigned URL, waits for processing, then pins it; a failed pin call does not upload again', async () => {
    const { t, fake, account, advance } = await setup()
    const bytes = mp4({ durationSec: 12, width: 1080, height: 1920 })
    const video = await storedMedia(t, { bytes, mimeType: 'video/mp4', width: 1080, height: 1920, durationSec: 12 })
    const p = await pin(t, account.id, { caption: 'Kneading', mediaIds: [video] })
    await runDue(t, t.publishQueue)
    expect((await getPost(t, p.id)).targets[0].status).toBe('PENDING')
    const media = [...fake.state.media.values()][0]!
    expect(Buffer.compare(media.bytes!, Buffer.from(bytes))).toBe(0)
    expect(fake.calls('POST', '/upload/pinterest-media-upload')[0]!.headers.authorization).toBeUndefined()
    fake.failNextError(503, 0, 'Service unavailable.', undefined, /^POST \/v5\/pins$/)
    for (let i = 0; i < 6; i++) {
      advance(60)
      await runDue(t, t.publishQueue)
    }
    const target = (await getPost(t, p.id)).targets[0]
    expect(target.status).toBe('PUBLISHED')
    expect(fake.state.pins.get(target.platformPostId)!.media_source).toEqual({
      source_type: 'video_id',
      media_id: media.media_id,
      cover_image_key_frame_time: 1,
    })
    expect(fake.calls('POST', '/v5/media')).toHaveLength(1)
    expect(fake.calls('POST', '/upload/pinterest-media-upload')).toHaveLength(1)
    expect(fake.calls('POST', '/v5/pins')).toHaveLength(2)
  })

  it('fails a video the network could not process', async () => {
    const { t, fake, account, advance } = await setup()
    const video = await storedMedia(t, {
      bytes: mp4({ durationSec: 8, width: 720, height: 1280 }),
      mimeType: 'video/mp4',
      width: 720,
      height: 1280,
      durationSec: 8,
    })
    const p = await pin(t, account.id, { caption: 'Broken', mediaIds: [video] })
    await runDue(t, t.publishQueue)
    for (const m of fake.state.media.values()) m.fail = true
    advance(15)
    await runDue(t, t.publishQueue)
    expect((await getPost(t, p.id)).targets[0]).toMatchObject({
      status: 'FAILED',
      error: { code: 'rejected', message: expect.stringMatching(/video could not be processed/) },
    })
  })

  it('checks a board against the account boards when the post is to go out; accepts it when the network cannot tell', async () => {
    const { t, fake, account } = await setup()
    const photo = await image(t, [9, 9, 9])
    const post = (action: string, board: string) =>
      t.call('POST', '/v1/posts', {
        body: {
          type: 'IMAGE',
          accountIds: [account.id],
          mediaIds: [photo.id],
          action,
          pinboardNetBoards: { [account.id]: board },
        },
      })
    // A draft makes no network call.
    expect((await post('draft', '549755899999')).status).toBe(200)
    expect(fake.calls('GET', '/v5/boards')).toHaveLength(0)
    const refused = await post('now', '549755899999')
    expect(refused.status).toBe(422)
    expect((await refused.json()).error).toMatchObject({
      code: 'invalid_option',
      details: [{ path: `pinboardNetBoards.${account.id}`, accountId: account.id }],
    })
    // The boards cannot be listed: accepted, the publish decides.
    fake.failNextError(503, 0, 'Service unavailable.', undefined, /^GET \/v5\/boards$/)
    expect((await post('now', '549755899999')).status).toBe(200)
  })

  it('lists its boards as destinations, checks and pins to the board sent as destinations', async () => {
    const { t, fake, account } = await setup({ boards: 3 })
    const listed = await t.call('GET', `/v1/accounts/${account.id}/destinations`)
    expect(listed.status).toBe(200)
    expect((await listed.json()).destinations).toEqual([
      { id: '549755813001', name: 'Board 1', description: 'Secret board' },
      { id: '549755813002', name: 'Board 2', description: null },
      { id: '549755813003', name: 'Board 3', description: null },
    ])
    const photo = await image(t, [30, 30, 30])
    const body = (board: string) => ({
      caption: 'By destination',
      mediaIds: [photo.id],
      destinations: { [account.id]: board },
    })
    const refused = await t.call('POST', '/v1/posts', {
      body: { type: 'IMAGE', accountIds: [account.id], action: 'now', ...body('549755899999') },
    })
    expect(refused.status).toBe(422)
    expect((await refused.json()).error.details).toEqual([
      expect.objectContaining({ path: `destinations.${account.id}`, accountId: account.id }),
    ])
    const p = await pin(t, account.id, body('549755813003'), null)
    await runDue(t, t.publishQueue)
    const target = (await getPost(t, p.id)).targets[0]
    expect(target.status).toBe('PUBLISHED')
    expect(fake.state.pins.get(target.platformPostId)).toMatchObject({ board_id: '549755813003' })
  })

  it("classifies failures: 429 waits (the network's reset, else a minute), 400 is refused in its words, 5xx retried", async () => {
    const { t, fake, account, advance } = await setup()
    const photo = await image(t, [5, 5, 5])
    // Armed for the pin call: creating the post lists the account's boards first (GET /v5/boards).
    const PINS = /^POST \/v5\/pins$/
    fake.failNextError(
      429,
      8,
      'You have exceeded your rate limit. Try again later.',
      { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '300' },
      PINS,
    )
    const a = await pin(t, account.id, { caption: 'Limited', mediaIds: [photo.id] })
    await runDue(t, t.publishQueue)
    const rowA = await targetOf(t, a.id)
    expect(rowA.error).toMatchObject({
      code: 'rate_limited',
      message: expect.stringMatching(/exceeded your rate limit/),
    })
    expect(rowA.dueAt!.getTime() - new Date(START).getTime()).toBe(300_000)
    fake.failNextError(429, 8, 'Rate limited.')
    advance(300)
    await runDue(t, t.publishQueue)
    expect((await targetOf(t, a.id)).dueAt!.getTime() - clockMs(START, 300)).toBe(60_000)
    advance(60)
    await runDue(t, t.publishQueue)
    expect((await getPost(t, a.id)).targets[0].status).toBe('PUBLISHED')

    fake.failNextError(400, 1, 'Invalid parameters: link is not a valid URL.', undefined, PINS)
    const b = await pin(t, account.id, { caption: 'Bad link', mediaIds: [photo.id] })
    fake.failNextError(502, 0, 'Bad gateway.', undefined, PINS)
    const c = await pin(t, account.id, { caption: 'Flaky', mediaIds: [photo.id] })
    await runDue(t, t.publishQueue)
    expect((await getPost(t, b.id)).targets[0]).toMatchObject({
      status: 'FAILED',
      error: { code: 'rejected', message: 'PINBOARD_NET: Invalid parameters: link is not a valid URL.' },
    })
    expect((await getPost(t, c.id)).targets[0]).toMatchObject({ status: 'PENDING', error: { code: 'transient' } })
  })

  it('renews a token that is due, keeping the refresh token when none is sent, saving a rotated one', async () => {
    const soon = { ...CREDS, expiresAt: '2026-11-21T20:00:00.000Z' }
    const kept = await setup({ credentials: soon })
    const photo = await image(kept.t, [7, 7, 7])
    const p = await pin(kept.t, kept.account.id, { caption: 'Fresh token', mediaIds: [photo.id] })
    await runDue(kept.t, kept.t.publishQueue)
    expect((await getPost(kept.t, p.id)).status).toBe('PUBLISHED')
    expect(kept.fake.calls('POST', '/v5/oauth/token')[0]!.form().get('grant_type')).toBe('refresh_token')
    expect((await storedCredentials(kept.t, kept.account.id)).credentials).toEqual({
      accessToken: 'pina_access_2',
      refreshToken: 'pinr_refresh_1',
      expiresAt: '2026-12-21T10:00:00.000Z',
    })

    const rotated = await setup({ credentials: soon, rotateRefreshToken: true })
    const res = await rotated.t.call('GET', `/v1/accounts/${rotated.account.id}/boards`)
    expect(res.status).toBe(200)
    expect((await storedCredentials(rotated.t, rotated.account.id)).credentials).toMatchObject({
      accessToken: 'pina_access_2',
      refreshToken: 'pinr_refresh_2',
    })
  })

  it('renews once when the network refuses a token that was not due, and publishes', async () => {
    const { t, fake, account } = await setup()
    fake.expireAccessToken()
    const photo = await image(t, [8, 8, 8])
    const p = await pin(t, account.id, { caption: 'Revived', mediaIds: [photo.id] })
    await runDue(t, t.publishQueue)
    expect((await getPost(t, p.id)).status).toBe('PUBLISHED')
    expect(fake.state.refreshCount).toBe(1)
  })

  it('marks the account EXPIRED when the token is refused and no OAuth client is configured', async () => {
    const { t, fake, account } = await setup({ withClient: false })
    fake.expireAccessToken()
    const photo = await image(t, [8, 8, 8])
    const p = await pin(t, account.id, { caption: 'Stuck', mediaIds: [photo.id] })
    await runDue(t, t.publishQueue)
    expect((await getPost(t, p.id)).targets[0]).toMatchObject({
      status: 'FAILED',
      error: {
        code: 'auth_expired',
        message: expect.stringMatching(/reconnect the account.*no OAuth client configured/),
      },
    })
    const { row } = await storedCredentials(t, account.id)
    expect(row.status).toBe('EXPIRED')
  })

  it('settles a publish it lost track of: the pin found on the board, or absent and pinned once', async () => {
    const { t, fake, account, adapter, clock } = await setup()
    const photo = await image(t, [3, 3, 3])
    const p = await pin(t, account.id, {
      caption: 'Lost pin',
      mediaIds: [photo.id],
      linkUrl: 'https://bakery.example/lost',
    })
    const [d] = t.publishQueue.takeDue(new Date(8.64e15))
    const claimed = (await claimTarget(t.deps.db, d!.targetId, d!.version, clock.now(), 60))!
    const content = await buildTargetContent(t.deps.db, claimed.post, account.id, 'PINBOARD_NET')
    const saved: Record<string, unknown> = {}
    await adapter.publish({
      idempotencyKey: d!.targetId,
      accountId: account.id,
      connection: 'DIRECT_LOGIN',
      credentials: CREDS,
      content,
      progress: {},
      attempt: 1,
      fetch,
      baseUrl: fake.url,
      now: clock.now(),
      saveProgress: async (next) => {
        if (next.headId) return
        Object.assign(saved, next)
        await t.deps.db
          .update(targets)
          .set({ progress: { ...saved } })
          .where(eq(targets.id, d!.targetId))
      },
    })
    const q = await pin(t, account.id, { caption: 'Never sent', mediaIds: [photo.id] })
    const [e] = t.publishQueue.takeDue(new Date(8.64e15))
    await claimTarget(t.deps.db, e!.targetId, e!.version, clock.now(), 60)
    clock.set('2026-11-21T10:05:00Z')
    await sweepTargets(t.deps, { workspaceId: t.workspaceId })
    expect((await getPost(t, p.id)).targets[0]).toMatchObject({
      status: 'PUBLISHED',
      platformPostId: [...fake.state.pins.keys()][0],
    })
    await runDue(t, t.publishQueue)
    expect((await getPost(t, q.id)).targets[0].status).toBe('PUBLISHED')
    expect([...fake.state.pins.values()].map((x) => x.description).sort()).toEqual(['Lost pin', 'Never sent'])
  })

  it('reads followers, impressions and saves (likes, comments, shares null), and deletes a pin', async () => {
    const { t, fake, account, adapter } = await setup()
    const photo = await image(t, [4, 4, 4])
    const p = await pin(t, account.id, { caption: 'Counted', mediaIds: [photo.id] })
    await runDue(t, t.publishQueue)
    const id = (await getPost(t, p.id)).targets[0].platformPostId
    fake.state.analytics.set(id, { IMPRESSION: 900, SAVE: 41 })
    const insights = await adapter.fetchInsights!({
      accountId: account.id,
      connection: 'DIRECT_LOGIN',
      credentials: CREDS,
      fetch,
      baseUrl: fake.url,
      now: new Date('2026-11-23T10:00:00Z'),
      posts: [{ targetId: 'tp', platformPostId: id, publishedAt: new Date(START) }],
    })
    expect(insights).toEqual({
      followers: 321,
      posts: [{ targetId: 'tp', likes: null, comments: null, shares: null, views: 900, saves: 41 }],
    })
    const q = fake.calls('GET', `/v5/pins/${id}/analytics`)[0]!.query
    expect([q.get('start_date'), q.get('end_date'), q.get('metric_types')]).toEqual([
      '2026-11-21',
      '2026-11-23',
      'IMPRESSION,SAVE',
    ])
    const input = {
      connection: 'DIRECT_LOGIN',
      credentials: CREDS,
      platformPostId: id,
      fetch,
      baseUrl: fake.url,
      now: new Date('2026-11-23T10:00:00Z'),
    }
    await adapter.deletePost!(input)
    expect(fake.state.pins.has(id)).toBe(false)
    await expect(adapter.deletePost!(input)).resolves.toBeUndefined()
  })
})

const clockMs = (iso: string, plusSec: number) => new Date(iso).getTime() + plusSec * 1000
