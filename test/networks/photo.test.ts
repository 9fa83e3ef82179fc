import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { accounts, targets } from '../../src/db/schema'
import type { PublishInput, PublishProgress } from '../../src/networks/adapter'
import { NetworkFailure } from '../../src/networks/http'
import { connectAccount } from '../../src/services/accounts/connection'
import { startPhotoFake } from '../fakes/photo'
import { runDue } from '../support/engine'
import { fixedClock, realAccount, storedMedia } from '../support/fixtures'
import { createTestApp, type TestApp } from '../support/test-app'
import { jpeg, mp4, paint, png } from '../support/media'

const START = '2026-11-20T10:00:00.000Z'

async function setup(options: { processingPolls?: number } = {}) {
  const clock = fixedClock(START)
  const graph = await startPhotoFake({ host: 'facebook', now: clock.now, ...options })
  const direct = await startPhotoFake({ host: 'instagram', now: clock.now, token: 'ig-direct-token', ...options })
  const t = await createTestApp({
    clock,
    networks: { origins: { PHOTO_NET_API_URL: graph.url, PHOTO_NET_DIRECT_API_URL: direct.url } },
    publishing: { backoffBaseSec: 10, random: () => 0.5 },
  })
  return { t, clock, graph, direct }
}

const advance = (clock: ReturnType<typeof fixedClock>, sec: number) =>
  clock.set(new Date(clock.now().getTime() + sec * 1000).toISOString())
const image = async (t: TestApp, altText: string | null = null) =>
  storedMedia(t, { bytes: await jpeg(paint(1080, 1350, () => [200, 40, 40])), mimeType: 'image/jpeg', altText })
const video = (t: TestApp) =>
  storedMedia(t, {
    bytes: mp4({ durationSec: 12, width: 1080, height: 1920, fastStart: true }),
    mimeType: 'video/mp4',
    width: 1080,
    height: 1920,
    durationSec: 12,
  })
const graphAccount = (t: TestApp, fake: { igUserId: string }, token = 'ig-token') =>
  realAccount(t, 'PHOTO_NET', 'SOCIALGRAPH_LOGIN', { accessToken: token, igUserId: fake.igUserId })

async function post(t: TestApp, body: Record<string, unknown>) {
  const res = await t.call('POST', '/v1/posts', { body: { type: 'IMAGE', action: 'now', ...body } })
  const json = await res.json()
  expect(res.status, JSON.stringify(json)).toBe(200)
  return json.id as string
}
const target = async (t: TestApp, id: string) => (await (await t.call('GET', `/v1/posts/${id}`)).json()).targets[0]

describe('PHOTO_NET adapter', () => {
  it('confirms credentials on both hosts and refuses a bad token or another account', async () => {
    const { t, graph, direct } = await setup()
    const viaGraph = await connectAccount(t.deps, {
      workspaceId: t.workspaceId,
      platform: 'PHOTO_NET',
      connection: 'SOCIALGRAPH_LOGIN',
      credentials: { accessToken: 'ig-token', igUserId: graph.igUserId },
    })
    expect(viaGraph).toMatchObject({ username: 'photo_user' })
    const viaDirect = await connectAccount(t.deps, {
      workspaceId: t.workspaceId,
      platform: 'PHOTO_NET',
      connection: 'DIRECT_LOGIN',
      credentials: { accessToken: 'ig-direct-token', igUserId: direct.igUserId },
    })
    expect(viaDirect).toMatchObject({ username: 'photo_user' })
    expect(direct.calls('GET', /\/v23\.0\/me$/)[0]!.query.get('fields')).toBe('user_id,username')
    await expect(
      connectAccount(t.deps, {
        workspaceId: t.workspaceId,
        platform: 'PHOTO_NET',
        connection: 'SOCIALGRAPH_LOGIN',
        credentials: { accessToken: 'wrong', igUserId: graph.igUserId },
      }),
    ).rejects.toThrow(/Invalid OAuth access token/)
    await expect(
      connectAccount(t.deps, {
        workspaceId: t.workspaceId,
        platform: 'PHOTO_NET',
        connection: 'DIRECT_LOGIN',
        credentials: { accessToken: 'ig-direct-token', igUserId: '999' },
      }),
    ).rejects.toThrow(/not 999/)
  })

  it('publishes an image through a container that processes for a while, then comments once', async () => {
    const { t, clock, graph } = await setup({ processingPolls: 3 })
    const a = await graphAccount(t, graph)
    const m = await image(t, 'A red square')
    const id = await post(t, {
      accountIds: [a.id],
      mediaIds: [m],
      caption: 'Red #square by @someone',
      firstComment: 'More in bio',
    })
    expect(await runDue(t, t.publishQueue)).toEqual(['pending'])
    const [container] = graph.containers()
    expect(container!.params).toMatchObject({ caption: 'Red #square by @someone', alt_text: 'A red square' })
    expect(container!.fetched).toMatchObject({ contentType: 'image/jpeg' })
    expect(container!.fetched!.bytes).toBeGreaterThan(1000)
    advance(clock, 20)
    expect(await runDue(t, t.publishQueue)).toEqual(['pending'])
    advance(clock, 20)
    expect(await runDue(t, t.publishQueue)).toEqual(['published'])
    const published = await target(t, id)
    const media = graph.state.media[0]!
    expect(published).toMatchObject({ status: 'PUBLISHED', platformPostId: media.id, permalink: media.permalink })
    expect(media.comments).toEqual(['More in bio'])
    expect(graph.state.publishCalls).toHaveLength(1)
    expect(graph.calls('POST', /\/media$/)).toHaveLength(1)
  })

  it('builds a carousel from child containers, with the caption on the parent only', async () => {
    const { t, graph } = await setup()
    const a = await graphAccount(t, graph)
    const ids = [await image(t, 'First slide'), await video(t)]
    const id = await post(t, { type: 'CAROUSEL', accountIds: [a.id], mediaIds: ids, caption: 'Two things' })
    await runDue(t, t.publishQueue)
    expect((await target(t, id)).status).toBe('PUBLISHED')
    const [c1, c2, parent] = graph.containers()
    expect(c1!.params).toMatchObject({
      image_url: expect.any(String),
      is_carousel_item: 'true',
      alt_text: 'First slide',
    })
    expect(c2!.params).toMatchObject({ media_type: 'VIDEO', is_carousel_item: 'true' })
    expect(c2!.fetched!.contentType).toBe('video/mp4')
    expect(c1!.params.caption).toBeUndefined()
    expect(parent!.params).toMatchObject({
      media_type: 'CAROUSEL',
      children: `${c1!.id},${c2!.id}`,
      caption: 'Two things',
    })
  })

  it('publishes a reel with its audio through the Facebook login, and a story on the direct host without caption or comment', async () => {
    const { t, graph, direct } = await setup()
    const a = await graphAccount(t, graph)
    const reelId = await post(t, {
      type: 'REEL',
      accountIds: [a.id],
      mediaIds: [await video(t)],
      caption: 'Reel time',
      audio: { audioId: '587784541076604', audioVolume: 0.8, videoVolume: 0.2 },
    })
    const b = await realAccount(t, 'PHOTO_NET', 'DIRECT_LOGIN', {
      accessToken: 'ig-direct-token',
      igUserId: direct.igUserId,
    })
    const storyId = await post(t, {
      type: 'STORY',
      accountIds: [b.id],
      mediaIds: [await image(t)],
      caption: 'ignored on stories',
    })
    await runDue(t, t.publishQueue)
    expect((await target(t, reelId)).status).toBe('PUBLISHED')
    expect(graph.containers()[0]!.params).toMatchObject({
      media_type: 'REELS',
      share_to_feed: 'true',
      caption: 'Reel time',
      audio_configuration: JSON.stringify({ audio_id: '587784541076604', audio_volume: 80, video_volume: 20 }),
    })
    expect((await target(t, storyId)).status).toBe('PUBLISHED')
    const story = direct.containers()[0]!
    expect(story.params).toMatchObject({ media_type: 'STORIES', image_url: expect.any(String) })
    expect(story.params.caption).toBeUndefined()
    expect(direct.calls('POST', /\/comments$/)).toHaveLength(0)
  })

  it('rejects media the network cannot process, with its words', async () => {
    const { t, graph } = await setup()
    const a = await graphAccount(t, graph)
    const notJpeg = await storedMedia(t, {
      bytes: await png(paint(1080, 1350, () => [0, 0, 0])),
      mimeType: 'image/jpeg',
    })
    const id = await post(t, { accountIds: [a.id], mediaIds: [notJpeg], caption: 'x' })
    expect(await runDue(t, t.publishQueue)).toEqual(['failed'])
    expect((await target(t, id)).error).toMatchObject({
      code: 'rejected',
      message: expect.stringContaining('the image format is not supported (use JPEG) (2207005)'),
    })
  })

  it('waits without building anything while the 24 h publishing quota is used up', async () => {
    const { t, clock, graph } = await setup()
    graph.state.quotaUsedElsewhere = 50
    const a = await graphAccount(t, graph)
    const id = await post(t, { accountIds: [a.id], mediaIds: [await image(t)], caption: 'x' })
    expect(await runDue(t, t.publishQueue)).toEqual(['retrying'])
    expect(graph.calls('GET', new RegExp(`/${graph.igUserId}/content_publishing_limit$`))[0]!.query.get('fields')).toBe(
      'quota_usage,config',
    )
    expect(graph.calls('POST', /\/media$/)).toHaveLength(0)
    const [row] = await t.deps.db.select().from(targets).where(eq(targets.postId, id))
    expect(row!.error).toMatchObject({ code: 'rate_limited', message: expect.stringContaining('50 of its 50') })
    expect(row!.dueAt!.getTime() - clock.now().getTime()).toBe(3_600_000)
    graph.state.quotaUsedElsewhere = 10
    advance(clock, 3600)
    expect(await runDue(t, t.publishQueue)).toEqual(['published'])
  })

  it('waits as the network asks when throttled, and for a day cap; retries a 5xx', async () => {
    const { t, clock, graph } = await setup()
    const a = await graphAccount(t, graph)
    graph.failNext(/\/media$/, {
      status: 400,
      headers: {
        'x-business-use-case-usage': JSON.stringify({
          [graph.igUserId]: [{ type: 'instagram', estimated_time_to_regain_access: 5 }],
        }),
      },
      json: { error: { message: 'Application request limit reached', code: 4, fbtrace_id: 'x' } },
    })
    const id = await post(t, { accountIds: [a.id], mediaIds: [await image(t)], caption: 'x' })
    expect(await runDue(t, t.publishQueue)).toEqual(['retrying'])
    const [row] = await t.deps.db.select().from(targets).where(eq(targets.postId, id))
    expect(row!.error).toMatchObject({ code: 'rate_limited' })
    expect(row!.dueAt!.getTime() - clock.now().getTime()).toBe(300_000)
    graph.failNext(/\/media$/, {
      status: 400,
      json: {
        error: {
          message: 'The user has reached the daily publishing limit',
          code: 9,
          error_subcode: 2207042,
          fbtrace_id: 'x',
        },
      },
    })
    advance(clock, 300)
    expect(await runDue(t, t.publishQueue)).toEqual(['retrying'])
    const [again] = await t.deps.db.select().from(targets).where(eq(targets.postId, id))
    expect(again!.dueAt!.getTime() - clock.now().getTime()).toBe(3_600_000)
    graph.failNext(/\/media$/, {
      status: 500,
      json: { error: { message: 'An unexpected error has occurred.', code: 2, is_transient: true, fbtrace_id: 'x' } },
    })
    advance(clock, 3600)
    expect(await runDue(t, t.publishQueue)).toEqual(['retrying'])
    advance(clock, 3600)
    expect(await runDue(t, t.publishQueue)).toEqual(['published'])
    expect(graph.state.media).toHaveLength(1)
  })

  it('marks the account EXPIRED with a reconnect message when the token is refused', async () => {
    const { t, graph } = await setup()
    const a = await graphAccount(t, graph)
    graph.expireToken()
    const id = await post(t, { accountIds: [a.id], mediaIds: [await image(t)], caption: 'x' })
    expect(await runDue(t, t.publishQueue)).toEqual(['failed'])
    expect((await target(t, id)).error.code).toBe('auth_expired')
    const [row] = await t.deps.db.select().from(accounts).where(eq(accounts.id, a.id))
    expect(row!.status).toBe('EXPIRED')
    expect(row!.statusMessage).toMatch(/reconnect the account/)
  })

  it('never publishes twice when the publish answer is lost, and keeps a refused comment as a warning', async () => {
    const { t, clock, graph } = await setup()
    graph.state.loseNextPublishAnswer = true
    graph.state.refusedComments = true
    const a = await graphAccount(t, graph)
    const id = await post(t, {
      accountIds: [a.id],
      mediaIds: [await image(t)],
      caption: 'Only once',
      firstComment: 'hello',
    })
    expect(await runDue(t, t.publishQueue)).toEqual(['retrying'])
    advance(clock, 60)
    expect(await runDue(t, t.publishQueue)).toEqual(['published'])
    expect(graph.state.publishCalls).toHaveLength(1)
    expect(graph.state.media).toHaveLength(1)
    const published = await target(t, id)
    expect(published.platformPostId).toBe(graph.state.media[0]!.id)
    const [row] = await t.deps.db.select().from(targets).where(eq(targets.postId, id))
    expect(row!.warnings![0]).toMatch(/Commenting has been turned off/)
    expect(row!.progress).toMatchObject({ firstComment: 'refused' })
    expect(graph.calls('GET', new RegExp(`/${graph.igUserId}/media$`))).toHaveLength(1)
  })

  it('answers an unconfirmed publish from the container status', async () => {
    const { t, graph } = await setup()
    const adapter = t.deps.networks.adapterFor('PHOTO_NET', 'SOCIALGRAPH_LOGIN')!
    const progress: PublishProgress = {}
    const input = (unconfirmed: boolean) =>
      ({
        idempotencyKey: 'tg_1',
        accountId: 'ac_1',
        connection: 'SOCIALGRAPH_LOGIN',
        credentials: { accessToken: 'ig-token', igUserId: graph.igUserId },
        content: {
          platform: 'PHOTO_NET',
          type: 'IMAGE',
          text: 'Unconfirmed',
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
        progress: { ...progress },
        saveProgress: async (p: PublishProgress) => void Object.assign(progress, p),
        attempt: 1,
        fetch,
        baseUrl: graph.url,
        now: new Date(START),
        unconfirmed,
      }) as PublishInput & { unconfirmed: boolean }
    expect(await adapter.checkStatus!(input(true))).toEqual({ status: 'absent' })
    const m = await image(t)
    const [row] = await t.deps.db.query.mediaAssets.findMany({ where: (x, { eq: is }) => is(x.id, m) })
    const created = (await (
      await fetch(`${graph.url}/v23.0/${graph.igUserId}/media`, {
        method: 'POST',
        body: new URLSearchParams({ image_url: row!.url, caption: 'Unconfirmed', access_token: 'ig-token' }),
      })
    ).json()) as { id: string }
    progress.containers = { childIds: [], id: created.id }
    expect(await adapter.checkStatus!(input(true))).toEqual({ status: 'absent' })
    await fetch(`${graph.url}/v23.0/${graph.igUserId}/media_publish`, {
      method: 'POST',
      body: new URLSearchParams({ creation_id: created.id, access_token: 'ig-token' }),
    })
    expect(await adapter.checkStatus!(input(true))).toMatchObject({
      status: 'published',
      platformPostId: graph.state.media[0]!.id,
    })
    expect(graph.state.publishCalls).toHaveLength(1)
  })

  it('renews a direct-login token close to expiry and saves the new one', async () => {
    const { t, direct } = await setup()
    const a = await realAccount(t, 'PHOTO_NET', 'DIRECT_LOGIN', {
      accessToken: 'ig-direct-token',
      igUserId: direct.igUserId,
      expiresAt: '2026-11-23T00:00:00.000Z',
    })
    const id = await post(t, { accountIds: [a.id], mediaIds: [await image(t)], caption: 'x' })
    expect(await runDue(t, t.publishQueue)).toEqual(['published'])
    expect((await target(t, id)).status).toBe('PUBLISHED')
    expect(direct.calls('GET', '/refresh_access_token')[0]!.query.get('grant_type')).toBe('ig_refresh_token')
    const [row] = await t.deps.db.select().from(accounts).where(eq(accounts.id, a.id))
    const creds = await t.deps.cipher.decrypt(row!.credentials, a.id)
    expect(creds).toMatchObject({
      accessToken: 'ig-direct-token-r1',
      igUserId: direct.igUserId,
      expiresAt: '2027-01-19T10:00:00.000Z',
    })
  })

  it('reads followers and per-post metrics, null for a post the network has no figures for', async () => {
    const { t, graph } = await setup()
    const a = await graphAccount(t, graph)
    await post(t, { accountIds: [a.id], mediaIds: [await image(t)], caption: 'x' })
    await runDue(t, t.publishQueue)
    const adapter = t.deps.networks.adapterFor('PHOTO_NET', 'SOCIALGRAPH_LOGIN')!
    const insights = await adapter.fetchInsights!({
      accountId: a.id,
      connection: 'SOCIALGRAPH_LOGIN',
      credentials: { accessToken: 'ig-token', igUserId: graph.igUserId },
      fetch,
      baseUrl: graph.url,
      now: new Date(START),
      posts: [
        { targetId: 't1', platformPostId: graph.state.media[0]!.id, publishedAt: new Date(START) },
        { targetId: 't2', platformPostId: 'gone', publishedAt: new Date(START) },
      ],
    })
    expect(insights).toEqual({
      followers: 1234,
      posts: [
        { targetId: 't1', likes: 10, comments: 2, shares: 1, saves: 4, views: 300, reach: 250 },
        { targetId: 't2', likes: null, comments: null, shares: null, saves: null, views: null, reach: null },
      ],
    })
    expect(adapter.deletePost).toBeUndefined()
    await expect(
      adapter.fetchInsights!({
        accountId: a.id,
        connection: 'SOCIALGRAPH_LOGIN',
        credentials: { accessToken: 'bad', igUserId: graph.igUserId },
        fetch,
        baseUrl: graph.url,
        now: new Date(START),
        posts: [],
      }),
    ).rejects.toBeInstanceOf(NetworkFailure)
  })
})
