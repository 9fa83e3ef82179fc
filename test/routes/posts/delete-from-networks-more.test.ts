import { describe, expect, it } from 'vitest'
import { startOpenProtocolFake } from '../../fakes/open-protocol'
import { startPinboardFake } from '../../fakes/pinboard'
import { startProfessionalFake } from '../../fakes/professional'
import { startSocialGraphFake } from '../../fakes/social-graph'
import { startVideoShareFake } from '../../fakes/video-share'
import { runDue } from '../../support/engine'
import { account as sandboxAccount, fixedClock, realAccount, storedMedia } from '../../support/fixtures'
import { jpeg, paint } from '../../support/media'
import { serveApp } from '../../support/serve-app'
import { createTestApp, type TestApp } from '../../support/test-app'

const BOARD = '549755813002'

/** The networks the first file does not cover, each behind its loopback fake, and the app over real HTTP. */
async function setup() {
  const clock = fixedClock('2026-11-21T10:00:00Z')
  const openProtocol = await startOpenProtocolFake({ now: clock.now })
  const pinboard = await startPinboardFake({})
  pinboard.state.clock = () => clock.now()
  const professional = await startProfessionalFake({ processingPolls: 0 })
  const socialGraph = await startSocialGraphFake()
  socialGraph.state.clock = () => clock.now()
  const videoShare = await startVideoShareFake()
  videoShare.state.processingPolls = 0
  const t = await createTestApp({
    clock,
    networks: {
      origins: {
        OPENPROTOCOL_NET_VIDEO_URL: openProtocol.videoUrl,
        PINBOARD_NET_API_URL: pinboard.url,
        PROFESSIONAL_NET_API_URL: professional.url,
        SOCIALGRAPH_NET_API_URL: socialGraph.url,
        VIDEOSHARE_NET_API_URL: videoShare.url,
        VIDEOSHARE_NET_OAUTH_URL: videoShare.url,
      },
      clients: {
        PINBOARD_NET: { clientId: 'pin-client', clientSecret: 'pin-secret' },
        VIDEOSHARE_NET: { clientId: 'yt_client', clientSecret: 'yt_secret' },
      },
    },
    publishing: { backoffBaseSec: 30, maxAttempts: 5, leaseSec: 60, sweepGraceSec: 30, random: () => 0.5 },
  })
  const accounts = {
    openProtocol: await realAccount(
      t,
      'OPENPROTOCOL_NET',
      'APP_PASSWORD',
      { serviceUrl: openProtocol.url, identifier: openProtocol.handle, appPassword: openProtocol.appPassword },
      openProtocol.did,
    ),
    pinboard: await realAccount(
      t,
      'PINBOARD_NET',
      'DIRECT_LOGIN',
      { accessToken: 'pina_access_1', refreshToken: 'pinr_refresh_1', expiresAt: '2026-12-20T10:00:00.000Z' },
      '7788',
    ),
    professional: await realAccount(t, 'PROFESSIONAL_NET', 'DIRECT_LOGIN', {
      accessToken: 'li-token',
      expiresAt: '2027-01-15T00:00:00.000Z',
      authorUrn: 'urn:li:person:abc123',
    }),
    socialGraph: await realAccount(
      t,
      'SOCIALGRAPH_NET',
      'DIRECT_LOGIN',
      { accessToken: 'EAAPageToken', pageId: '1010' },
      '1010',
    ),
    videoShare: await realAccount(
      t,
      'VIDEOSHARE_NET',
      'DIRECT_LOGIN',
      {
        accessToken: videoShare.state.accessToken,
        refreshToken: videoShare.state.refreshToken,
        expiresAt: '2026-11-21T11:00:00Z',
        channelId: 'UC_channel_1',
      },
      'UC_channel_1',
    ),
  }
  const http = await serveApp(t)
  return { t, clock, http, accounts, fakes: { openProtocol, pinboard, professional, socialGraph, videoShare } }
}

async function publishNow(t: TestApp, body: Record<string, unknown>) {
  const res = await t.call('POST', '/v1/posts', { body: { type: 'IMAGE', mediaIds: [], action: 'now', ...body } })
  const post = await res.json()
  expect(res.status, JSON.stringify(post)).toBe(200)
  return post.id as string
}

/** Runs the engine, moving the clock on, until nothing is due any more. */
async function settle(t: TestApp, clock: ReturnType<typeof fixedClock>): Promise<string[]> {
  const outcomes: string[] = []
  for (let i = 0; i < 10; i++) {
    outcomes.push(...(await runDue(t, t.publishQueue)))
    clock.set(new Date(clock.now().getTime() + 60_000).toISOString())
  }
  return outcomes
}

const outcomes = (answer: any) => answer.targets.map((x: any) => [x.platform, x.outcome, x.deletedIds.length])

describe('DELETE /v1/posts/{id}?fromNetworks=true on the other networks', () => {
  it('deletes a thread of records, a page post, a member post, a pin and a video, each at its fake', async () => {
    const { t, clock, http, accounts, fakes } = await setup()
    const thread = await publishNow(t, {
      accountIds: [accounts.openProtocol.id, accounts.socialGraph.id, accounts.professional.id],
      caption: 'Head of the thread',
      threadParts: ['Second', 'Third'],
    })
    const pinImage = await storedMedia(t, {
      bytes: await jpeg(paint(60, 90, () => [200, 40, 40])),
      mimeType: 'image/jpeg',
      width: 1000,
      height: 1500,
    })
    const pin = await publishNow(t, {
      accountIds: [accounts.pinboard.id],
      mediaIds: [pinImage],
      caption: 'A pin',
      pinboardNetBoards: { [accounts.pinboard.id]: BOARD },
    })
    const video = await storedMedia(t, {
      bytes: Uint8Array.from({ length: 300_000 }, (_, i) => (i * 13) % 253),
      mimeType: 'video/mp4',
      width: 1080,
      height: 1920,
      durationSec: 40,
    })
    const reel = await publishNow(t, {
      type: 'REEL',
      accountIds: [accounts.videoShare.id],
      mediaIds: [video],
      caption: 'A video',
    })
    await settle(t, clock)
    for (const id of [thread, pin, reel]) {
      expect((await http('GET', `/v1/posts/${id}`)).body.status, id).toBe('PUBLISHED')
    }
    expect(fakes.openProtocol.state.records.size).toBe(3)
    expect(fakes.socialGraph.state.posts.size).toBe(1)
    expect(fakes.professional.state.posts).toHaveLength(1)
    expect(fakes.pinboard.state.pins.size).toBe(1)
    expect(fakes.videoShare.state.videos).toHaveLength(1)
    const memberPost = fakes.professional.state.posts[0]!.urn

    const first = await http('DELETE', `/v1/posts/${thread}?fromNetworks=true`)
    expect(first).toMatchObject({ status: 200, body: { deleted: true } })
    expect(outcomes(first.body)).toEqual([
      ['OPENPROTOCOL_NET', 'deleted', 3],
      ['SOCIALGRAPH_NET', 'deleted', 1],
      ['PROFESSIONAL_NET', 'deleted', 1],
    ])
    expect(fakes.openProtocol.state.records.size).toBe(0)
    expect(fakes.openProtocol.pds.calls('POST', /deleteRecord$/)).toHaveLength(3)
    expect(fakes.socialGraph.state.posts.size).toBe(0)
    expect(fakes.professional.state.deleted).toEqual([memberPost])

    const second = await http('DELETE', `/v1/posts/${pin}?fromNetworks=true`)
    expect(outcomes(second.body)).toEqual([['PINBOARD_NET', 'deleted', 1]])
    expect(fakes.pinboard.state.pins.size).toBe(0)
    const third = await http('DELETE', `/v1/posts/${reel}?fromNetworks=true`)
    expect(outcomes(third.body)).toEqual([['VIDEOSHARE_NET', 'deleted', 1]])
    expect(fakes.videoShare.state.videos).toHaveLength(0)
    expect(fakes.videoShare.calls('DELETE', '/youtube/v3/videos')).toHaveLength(1)
  })

  it('stops what is still waiting to publish: a target not yet out is cancelled, a half-posted thread is taken down', async () => {
    const { t, clock, http, accounts, fakes } = await setup()
    // The member network fails for now (retried later); the thread's second record fails after the head.
    fakes.professional.failNext(/^POST \/rest\/posts$/, { status: 503, json: { message: 'Try later' } })
    fakes.openProtocol.pds.fault('POST', /createRecord$/, { kind: 'status', status: 503 }, { skip: 1 })
    const id = await publishNow(t, {
      accountIds: [accounts.openProtocol.id, accounts.professional.id, accounts.socialGraph.id],
      caption: 'Head',
      threadParts: ['Second'],
    })
    expect(await runDue(t, t.publishQueue)).toEqual(['retrying', 'retrying', 'published'])
    const before = (await http('GET', `/v1/posts/${id}`)).body
    expect(before.targets.map((x: any) => x.status)).toEqual(['PENDING', 'PENDING', 'PUBLISHED'])
    expect(fakes.openProtocol.state.records.size).toBe(1)

    // The retries fall due while the page network is still answering our delete: they publish nothing.
    clock.set('2026-11-21T10:05:00Z')
    let release = () => {}
    const gate = new Promise<void>((r) => (release = r))
    fakes.socialGraph.fault('DELETE', /.*/, { kind: 'delay', until: gate })
    const pending = http('DELETE', `/v1/posts/${id}?fromNetworks=true`)
    await expect.poll(() => fakes.socialGraph.calls('DELETE', /.*/).length).toBe(1)
    expect(await runDue(t, t.publishQueue)).toEqual(['skipped', 'skipped'])
    release()
    const res = await pending
    expect(res.body.deleted).toBe(true)
    expect(outcomes(res.body)).toEqual([
      ['OPENPROTOCOL_NET', 'deleted', 1],
      ['PROFESSIONAL_NET', 'not_published', 0],
      ['SOCIALGRAPH_NET', 'deleted', 1],
    ])
    expect(res.body.targets[1].message).toBe('Nothing of it reached PROFESSIONAL_NET; its publish is cancelled.')
    expect(fakes.openProtocol.state.records.size).toBe(0)
    // The retries that were due find nothing to publish.
    expect((await settle(t, clock)).every((o) => o === 'skipped')).toBe(true)
    expect(fakes.professional.state.posts).toHaveLength(0)
    expect(fakes.openProtocol.state.records.size).toBe(0)
  })

  it('keeps a target that was retried and published by hand while the networks were being called', async () => {
    const { t, http, accounts, fakes } = await setup()
    fakes.professional.failNext(/^POST \/rest\/posts$/, { status: 422, json: { message: 'Commentary is invalid' } })
    const id = await publishNow(t, { accountIds: [accounts.socialGraph.id, accounts.professional.id], caption: 'Hi' })
    expect(await runDue(t, t.publishQueue)).toEqual(['published', 'failed'])

    let release = () => {}
    const gate = new Promise<void>((r) => (release = r))
    fakes.socialGraph.fault('DELETE', /.*/, { kind: 'delay', until: gate })
    const pending = http('DELETE', `/v1/posts/${id}?fromNetworks=true`)
    await expect.poll(() => fakes.socialGraph.calls('DELETE', /.*/).length).toBe(1)
    expect((await t.call('POST', `/v1/posts/${id}/retry`)).status).toBe(200)
    expect(await runDue(t, t.publishQueue)).toEqual(['published'])
    release()
    const res = await pending
    expect(res.body.deleted).toBe(false)
    expect(outcomes(res.body)).toEqual([
      ['SOCIALGRAPH_NET', 'deleted', 1],
      ['PROFESSIONAL_NET', 'in_progress', 0],
    ])
    expect(res.body.targets[1].message).toMatch(/changed while the networks were being called/)
    const kept = (await http('GET', `/v1/posts/${id}`)).body
    expect(kept.targets.map((x: any) => [x.platform, x.status])).toEqual([['PROFESSIONAL_NET', 'PUBLISHED']])
    expect(fakes.professional.state.posts).toHaveLength(1)
  })

  it('does the same for sandbox accounts: deleted where the network deletes, kept where it cannot', async () => {
    const { t, http } = await setup()
    const microblog = await sandboxAccount(t, 'MICROBLOG_NET')
    const photo = await sandboxAccount(t, 'PHOTO_NET')
    const media = await storedMedia(t, {
      bytes: await jpeg(paint(108, 135, () => [10, 120, 200])),
      mimeType: 'image/jpeg',
      width: 1080,
      height: 1350,
    })
    const id = await publishNow(t, {
      accountIds: [microblog.id, photo.id],
      mediaIds: [media],
      caption: 'Sandbox',
      threadParts: ['More'],
    })
    expect(await runDue(t, t.publishQueue)).toEqual(['published', 'published'])
    const post = (await http('GET', `/v1/posts/${id}`)).body
    const res = await http('DELETE', `/v1/posts/${id}?fromNetworks=true`)
    expect(outcomes(res.body)).toEqual([
      ['MICROBLOG_NET', 'deleted', 2],
      ['PHOTO_NET', 'not_supported', 0],
    ])
    const page = (permalink: string) => t.app.request(new URL(permalink).pathname)
    expect((await page(post.targets[0].permalink)).status).toBe(404)
    expect((await page(post.targets[1].permalink)).status).toBe(200)
  })
})
