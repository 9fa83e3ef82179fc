import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { accounts, targets } from '../../src/db/schema'
import type { NetworkAdapter } from '../../src/networks/adapter'
import { connectAccount } from '../../src/services/accounts/connection'
import { claimTarget } from '../../src/services/publishing/claim'
import { sweepTargets } from '../../src/services/publishing/sweep'
import { buildTargetContent } from '../../src/services/publishing/target-content'
import { startSocialGraphFake } from '../fakes/social-graph'
import { jpeg, mp4, paint } from '../support/media'
import { runDue } from '../support/engine'
import { fixedClock, realAccount, storedMedia } from '../support/fixtures'
import { createTestApp, type TestApp } from '../support/test-app'

const START = '2026-11-21T10:00:00Z'
const CREDS = { accessToken: 'EAAPageToken', pageId: '1010' }

async function setup() {
  const clock = fixedClock(START)
  const fake = await startSocialGraphFake()
  fake.state.clock = () => clock.now()
  const t = await createTestApp({
    clock,
    networks: { origins: { SOCIALGRAPH_NET_API_URL: fake.url } },
    publishing: { random: () => 0.5 },
  })
  const account = await realAccount(t, 'SOCIALGRAPH_NET', 'DIRECT_LOGIN', CREDS, '1010')
  const adapter = t.deps.networks.adapterFor('SOCIALGRAPH_NET', 'DIRECT_LOGIN') as NetworkAdapter
  const advance = (sec: number) => clock.set(new Date(clock.now().getTime() + sec * 1000).toISOString())
  return { t, fake, clock, account, adapter, advance }
}

async function post(t: TestApp, accountId: string, body: Record<string, unknown>) {
  const res = await t.call('POST', '/v1/posts', {
    body: { type: 'IMAGE', accountIds: [accountId], mediaIds: [], action: 'now', ...body },
  })
  const created = await res.json()
  expect(res.ok, JSON.stringify(created)).toBe(true)
  return created as { id: string }
}

const getPost = async (t: TestApp, id: string) => (await t.call('GET', `/v1/posts/${id}`)).json()
const targetOf = async (t: TestApp, postId: string) =>
  (await t.deps.db.select().from(targets).where(eq(targets.postId, postId)))[0]!

const image = async (t: TestApp, color: [number, number, number], altText: string | null = null) => {
  const bytes = await jpeg(paint(64, 80, () => color))
  return { bytes, id: await storedMedia(t, { bytes, mimeType: 'image/jpeg', width: 1080, height: 1350, altText }) }
}

describe('SOCIALGRAPH_NET adapter (Facebook Pages Graph API)', () => {
  it('verifies a page token: the page name and id, and refuses a revoked token', async () => {
    const { t, fake } = await setup()
    const added = await connectAccount(t.deps, {
      workspaceId: t.workspaceId,
      platform: 'SOCIALGRAPH_NET',
      connection: 'DIRECT_LOGIN',
      credentials: CREDS,
    })
    expect(added).toMatchObject({ username: 'Corner Bakery', platform: 'SOCIALGRAPH_NET' })
    expect(fake.calls('GET', '/v23.0/1010')[0]!.query.get('fields')).toBe('id,name')
    fake.expireToken()
    await expect(
      connectAccount(t.deps, {
        workspaceId: t.workspaceId,
        platform: 'SOCIALGRAPH_NET',
        connection: 'DIRECT_LOGIN',
        credentials: CREDS,
      }),
    ).rejects.toThrow(/did not confirm.*Error validating access token/)
  })

  it('publishes text exactly as written, and a link as a preview card', async () => {
    const { t, fake, account } = await setup()
    const text = await post(t, account.id, { caption: 'Fresh bread at 7 <b>@everyone</b> & more' })
    const link = await post(t, account.id, { caption: 'Our new menu', linkUrl: 'https://bakery.example/menu' })
    await runDue(t, t.publishQueue)
    const [a, b] = [await getPost(t, text.id), await getPost(t, link.id)]
    expect(a.targets[0]).toMatchObject({
      status: 'PUBLISHED',
      platformPostId: expect.stringMatching(/^1010_/),
      permalink: expect.stringMatching(/^https:\/\/www\.facebook\.com\//),
    })
    expect(fake.state.posts.get(a.targets[0].platformPostId)).toMatchObject({
      message: 'Fresh bread at 7 <b>@everyone</b> & more',
      link: null,
      kind: 'status',
    })
    expect(fake.state.posts.get(b.targets[0].platformPostId)).toMatchObject({
      message: 'Our new menu',
      link: 'https://bakery.example/menu',
    })
    expect(fake.calls('POST', '/v23.0/1010/feed')[0]!.headers.authorization).toBe('Bearer EAAPageToken')
    // A page-tag sequence stays literal text instead of notifying that Page.
    const tag = await post(t, account.id, { caption: 'Thanks @[4242] for the flour' })
    await runDue(t, t.publishQueue)
    const tagged = fake.state.posts.get((await getPost(t, tag.id)).targets[0].platformPostId)!
    expect(tagged.message).toBe('Thanks @\u2060[4242] for the flour')
  })

  it('publishes one photo that the network pulls from our storage, caption and alt text included', async () => {
    const { t, fake, account } = await setup()
    const photo = await image(t, [200, 40, 40], 'A red loaf')
    const p = await post(t, account.id, { caption: 'Red velvet', mediaIds: [photo.id] })
    await runDue(t, t.publishQueue)
    const target = (await getPost(t, p.id)).targets[0]
    expect(target.status).toBe('PUBLISHED')
    const head = fake.state.posts.get(target.platformPostId)!
    expect(head).toMatchObject({ kind: 'photo', message: 'Red velvet' })
    const media = fake.state.media.get(head.attached[0]!)!
    expect(Buffer.compare(media.bytes, Buffer.from(photo.bytes))).toBe(0)
    expect(media.altText).toBe('A red loaf')
  })

  it('publishes several photos as one post of unpublished photos, and resumes without uploading any twice', async () => {
    const { t, fake, account, advance } = await setup()
    const photos = [await image(t, [10, 10, 200]), await image(t, [10, 200, 10]), await image(t, [200, 200, 10])]
    const p = await post(t, account.id, {
      type: 'CAROUSEL',
      caption: 'Three loaves',
      mediaIds: photos.map((x) => x.id),
    })
    fake.failNextGraph(500, 1, 'An unknown error occurred', {}, /^POST \/v23\.0\/1010\/feed$/)
    await runDue(t, t.publishQueue)
    expect((await getPost(t, p.id)).targets[0]).toMatchObject({
      status: 'PENDING',
      error: { code: 'transient', message: expect.stringMatching(/unknown error/) },
    })
    advance(120)
    await runDue(t, t.publishQueue)
    const target = (await getPost(t, p.id)).targets[0]
    expect(target.status).toBe('PUBLISHED')
    expect(fake.calls('POST', '/v23.0/1010/photos')).toHaveLength(3)
    expect(fake.calls('POST', '/v23.0/1010/photos').map((r) => r.json().published)).toEqual([false, false, false])
    const head = fake.state.posts.get(target.platformPostId)!
    expect(head).toMatchObject({ kind: 'album', message: 'Three loaves' })
    expect(
      head.attached.map((id) =>
        Buffer.compare(fake.state.media.get(id)!.bytes, Buffer.from(photos[head.attached.indexOf(id)]!.bytes)),
      ),
    ).toEqual([0, 0, 0])
    expect(fake.postsOfKind('photo')).toHaveLength(0)
  })

  it('publishes a video once the network has processed it, checking through the pending state', async () => {
    const { t, fake, account, advance } = await setup()
    const bytes = mp4({ durationSec: 30, width: 1280, height: 720 })
    const video = await storedMedia(t, { bytes, mimeType: 'video/mp4', width: 1280, height: 720, durationSec: 30 })
    const p = await post(t, account.id, { caption: 'Behind the oven', mediaIds: [video] })
    await runDue(t, t.publishQueue)
    expect((await getPost(t, p.id)).targets[0].status).toBe('PENDING')
    expect(fake.calls('POST', '/v23.0/1010/videos')[0]!.json()).toMatchObject({ description: 'Behind the oven' })
    for (let i = 0; i < 3; i++) {
      advance(20)
      await runDue(t, t.publishQueue)
    }
    const target = (await getPost(t, p.id)).targets[0]
    expect(target).toMatchObject({
      status: 'PUBLISHED',
      permalink: expect.stringMatching(/^https:\/\/www\.facebook\.com\/CornerBakery\/videos\//),
    })
    expect(Buffer.compare(fake.state.media.get(target.platformPostId)!.bytes, Buffer.from(bytes))).toBe(0)
    expect(fake.calls('POST', '/v23.0/1010/videos')).toHaveLength(1)
  })

  it('fails a video the network could not process, in its words', async () => {
    const { t, fake, account, advance } = await setup()
    const video = await storedMedia(t, {
      bytes: mp4({ durationSec: 10, width: 640, height: 360 }),
      mimeType: 'video/mp4',
      width: 640,
      height: 360,
      durationSec: 10,
    })
    const p = await post(t, account.id, { caption: 'Broken', mediaIds: [video] })
    await runDue(t, t.publishQueue)
    for (const m of fake.state.media.values()) m.failProcessing = true
    advance(20)
    await runDue(t, t.publishQueue)
    expect((await getPost(t, p.id)).targets[0]).toMatchObject({
      status: 'FAILED',
      error: { code: 'rejected', message: expect.stringMatching(/could not be processed: The video file is corrupt/) },
    })
  })

  it('fails a video whose upload expired before processing, instead of waiting for ever', async () => {
    const { t, fake, account, advance } = await setup()
    const video = await storedMedia(t, {
      bytes: mp4({ durationSec: 10, width: 640, height: 360 }),
      mimeType: 'video/mp4',
      width: 640,
      height: 360,
      durationSec: 10,
    })
    const p = await post(t, account.id, { caption: 'Too late', mediaIds: [video] })
    await runDue(t, t.publishQueue)
    for (const m of fake.state.media.values()) m.expired = true
    advance(20)
    await runDue(t, t.publishQueue)
    expect((await getPost(t, p.id)).targets[0]).toMatchObject({
      status: 'FAILED',
      error: { code: 'rejected', message: expect.stringMatching(/could not be processed: the upload expired/) },
    })
  })

  it('publishes a reel through the upload session and a photo story', async () => {
    const { t, fake, account, advance } = await setup()
    const bytes = mp4({ durationSec: 20, width: 1080, height: 1920 })
    const video = await storedMedia(t, { bytes, mimeType: 'video/mp4', width: 1080, height: 1920, durationSec: 20 })
    const reel = await post(t, account.id, { type: 'REEL', caption: 'Kneading', mediaIds: [video] })
    const photo = await image(t, [1, 2, 3])
    const story = await post(t, account.id, { type: 'STORY', caption: '', mediaIds: [photo.id] })
    await runDue(t, t.publishQueue)
    expect((await getPost(t, story.id)).targets[0]).toMatchObject({ status: 'PUBLISHED' })
    expect(fake.postsOfKind('story')).toHaveLength(1)
    const upload = fake.requests.find((r) => r.path.startsWith('/rupload/'))!
    expect(upload.headers).toMatchObject({
      authorization: 'OAuth EAAPageToken',
      file_url: expect.stringContaining('http'),
    })
    for (let i = 0; i < 3; i++) {
      advance(20)
      await runDue(t, t.publishQueue)
    }
    const target = (await getPost(t, reel.id)).targets[0]
    expect(target.status).toBe('PUBLISHED')
    expect(fake.state.posts.get(target.platformPostId)).toMatchObject({ kind: 'reel', message: 'Kneading' })
    expect(Buffer.compare(fake.state.media.get(target.platformPostId)!.bytes, Buffer.from(bytes))).toBe(0)
  })

  it('waits as long as the network asks when throttled, then publishes', async () => {
    const { t, fake, account, advance } = await setup()
    const usage = JSON.stringify({ '1010': [{ type: 'pages', call_count: 100, estimated_time_to_regain_access: 7 }] })
    fake.failNextGraph(400, 32, 'Page request limit reached', {}, undefined, { 'x-business-use-case-usage': usage })
    const p = await post(t, account.id, { caption: 'Throttled' })
    await runDue(t, t.publishQueue)
    const row = await targetOf(t, p.id)
    expect(row.status).toBe('PENDING')
    expect(row.error).toMatchObject({
      code: 'rate_limited',
      message: expect.stringMatching(/Page request limit reached/),
    })
    expect(row.dueAt!.getTime() - new Date(START).getTime()).toBe(420_000)
    advance(420)
    await runDue(t, t.publishQueue)
    expect((await getPost(t, p.id)).targets[0]).toMatchObject({ status: 'PUBLISHED', error: null })
  })

  it('marks the account EXPIRED on a revoked token, with the reconnect message', async () => {
    const { t, fake, account } = await setup()
    fake.expireToken()
    const p = await post(t, account.id, { caption: 'Hello' })
    await runDue(t, t.publishQueue)
    expect((await getPost(t, p.id)).targets[0]).toMatchObject({
      status: 'FAILED',
      error: {
        code: 'auth_expired',
        message: expect.stringMatching(/reconnect the account.*Error validating access token/),
      },
    })
    const [row] = await t.deps.db.select().from(accounts).where(eq(accounts.id, account.id))
    expect(row!.status).toBe('EXPIRED')
  })

  it("refuses at once with the network's words: duplicate post, Page Publishing Authorization", async () => {
    const { t, fake, account } = await setup()
    const first = await post(t, account.id, { caption: 'Same words' })
    await runDue(t, t.publishQueue)
    const again = await post(t, account.id, { caption: 'Same words' })
    await runDue(t, t.publishQueue)
    fake.failNextGraph(
      400,
      368,
      'The action attempted has been deemed abusive or is otherwise disallowed',
      { error_subcode: 1404078 },
      /feed$/,
    )
    const ppa = await post(t, account.id, { caption: 'Needs PPA' })
    await runDue(t, t.publishQueue)
    expect((await getPost(t, first.id)).status).toBe('PUBLISHED')
    expect((await getPost(t, again.id)).targets[0]).toMatchObject({
      status: 'FAILED',
      error: { code: 'rejected', message: expect.stringMatching(/Duplicate status message.*change the text/) },
    })
    expect((await getPost(t, ppa.id)).targets[0]).toMatchObject({
      status: 'FAILED',
      error: { code: 'rejected', message: expect.stringMatching(/Page Publishing Authorization/) },
    })
  })

  it('settles a publish it lost track of: found in the feed after the attempt, or absent and published once', async () => {
    const { t, fake, account, adapter, clock } = await setup()
    // The head post was created, then the process died before saving its id.
    const p = await post(t, account.id, { caption: 'Lost in transit' })
    const [d] = t.publishQueue.takeDue(new Date(8.64e15))
    const claimed = (await claimTarget(t.deps.db, d!.targetId, d!.version, clock.now(), 60))!
    const content = await buildTargetContent(t.deps.db, claimed.post, account.id, 'SOCIALGRAPH_NET')
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
    expect(fake.state.posts.size).toBe(1)
    // A second target that never reached the network.
    const q = await post(t, account.id, { caption: 'Never sent' })
    const [e] = t.publishQueue.takeDue(new Date(8.64e15))
    await claimTarget(t.deps.db, e!.targetId, e!.version, clock.now(), 60)
    clock.set('2026-11-21T10:05:00Z')
    await sweepTargets(t.deps, { workspaceId: t.workspaceId })
    expect((await getPost(t, p.id)).targets[0]).toMatchObject({
      status: 'PUBLISHED',
      platformPostId: [...fake.state.posts.keys()][0],
    })
    await runDue(t, t.publishQueue)
    expect((await getPost(t, q.id)).targets[0].status).toBe('PUBLISHED')
    expect([...fake.state.posts.values()].map((x) => x.message).sort()).toEqual(['Lost in transit', 'Never sent'])
  })

  it('reads followers and per-post reactions, comments, shares and views (null when the network has none)', async () => {
    const { t, fake, account, adapter } = await setup()
    const a = await post(t, account.id, { caption: 'Counted' })
    const b = await post(t, account.id, { caption: 'Too new for views' })
    await runDue(t, t.publishQueue)
    const [ida, idb] = [
      (await getPost(t, a.id)).targets[0].platformPostId,
      (await getPost(t, b.id)).targets[0].platformPostId,
    ]
    fake.state.counts.set(ida, { reactions: 12, comments: 3, shares: 2, views: 340 })
    fake.state.counts.set(idb, { reactions: 0, comments: 0, shares: 0, views: null })
    const insights = await adapter.fetchInsights!({
      accountId: account.id,
      connection: 'DIRECT_LOGIN',
      credentials: CREDS,
      fetch,
      baseUrl: fake.url,
      now: new Date(START),
      posts: [
        { targetId: 'ta', platformPostId: ida, publishedAt: new Date(START) },
        { targetId: 'tb', platformPostId: idb, publishedAt: new Date(START) },
      ],
    })
    expect(insights).toEqual({
      followers: 1234,
      posts: [
        { targetId: 'ta', likes: 12, comments: 3, shares: 2, views: 340, saves: null },
        { targetId: 'tb', likes: 0, comments: 0, shares: 0, views: null, saves: null },
      ],
    })
  })

  it('deletes a post, and takes one already gone as deleted', async () => {
    const { t, fake, account, adapter } = await setup()
    const p = await post(t, account.id, { caption: 'Short-lived' })
    await runDue(t, t.publishQueue)
    const id = (await getPost(t, p.id)).targets[0].platformPostId
    const input = {
      connection: 'DIRECT_LOGIN',
      credentials: CREDS,
      platformPostId: id,
      fetch,
      baseUrl: fake.url,
      now: new Date(START),
    }
    await adapter.deletePost!(input)
    expect(fake.state.posts.has(id)).toBe(false)
    await expect(adapter.deletePost!(input)).resolves.toBeUndefined()
  })
})
