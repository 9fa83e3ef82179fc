import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { accounts, targets } from '../../src/db/schema'
import { escapeLittleText, unescapeLittleText } from '../../src/networks/adapters/professional/text'
import { connectAccount } from '../../src/services/accounts/connection'
import { claimTarget } from '../../src/services/publishing/claim'
import { sweepTargets } from '../../src/services/publishing/sweep'
import { startProfessionalFake } from '../fakes/professional'
import { jpeg, paint } from '../support/media'
import { runDue } from '../support/engine'
import { fixedClock, realAccount, storedMedia } from '../support/fixtures'
import { createTestApp, type TestApp } from '../support/test-app'

const PERSON = 'urn:li:person:abc123'
const creds = (over: Record<string, unknown> = {}) => ({
  accessToken: 'li-token',
  expiresAt: '2027-01-15T00:00:00.000Z',
  authorUrn: PERSON,
  ...over,
})

async function setup(fakeOptions: Parameters<typeof startProfessionalFake>[0] = {}) {
  const fake = await startProfessionalFake({ processingPolls: 0, ...fakeOptions })
  const clock = fixedClock('2026-11-21T10:00:00Z')
  const t = await createTestApp({
    clock,
    networks: { origins: { PROFESSIONAL_NET_API_URL: fake.url } },
    publishing: {
      backoffBaseSec: 10,
      maxAttempts: 3,
      leaseSec: 60,
      sweepGraceSec: 30,
      random: () => 0.5,
    },
  })
  const account = await realAccount(t, 'PROFESSIONAL_NET', 'DIRECT_LOGIN', creds())
  return { fake, clock, t, account }
}

const createPost = async (t: TestApp, body: Record<string, unknown>) => {
  const res = await t.call('POST', '/v1/posts', { body: { type: 'IMAGE', mediaIds: [], action: 'now', ...body } })
  expect(res.status).toBe(200)
  return res.json()
}
const getPost = async (t: TestApp, id: string) => (await t.call('GET', `/v1/posts/${id}`)).json()
const image = (seed: number) => jpeg(paint(64, 48, (x, y) => [(x * seed) % 256, (y * 3) % 256, seed % 256]))

describe('PROFESSIONAL_NET adapter', () => {
  it('verifies a member token against its author URN, and a page by its name', async () => {
    const { fake, t } = await setup()
    const member = await connectAccount(t.deps, {
      workspaceId: t.workspaceId,
      platform: 'PROFESSIONAL_NET',
      connection: 'DIRECT_LOGIN',
      credentials: creds(),
    })
    expect(member).toMatchObject({ username: 'Ada Lovelace' })
    expect((await t.deps.db.select().from(accounts).where(eq(accounts.id, member.id)))[0]!.externalId).toBe(PERSON)
    const call = fake.calls('GET', '/v2/userinfo')[0]!
    expect(call.headers).toMatchObject({
      authorization: 'Bearer li-token',
      'x-restli-protocol-version': '2.0.0',
      'linkedin-version': '202605',
    })
    const page = await connectAccount(t.deps, {
      workspaceId: t.workspaceId,
      platform: 'PROFESSIONAL_NET',
      connection: 'DIRECT_LOGIN',
      credentials: creds({ authorUrn: 'urn:li:organization:2414183' }),
    })
    expect(page).toMatchObject({ username: 'Analytical Engines Ltd' })
    await expect(
      connectAccount(t.deps, {
        workspaceId: t.workspaceId,
        platform: 'PROFESSIONAL_NET',
        connection: 'DIRECT_LOGIN',
        credentials: creds({ authorUrn: 'urn:li:person:someoneelse' }),
      }),
    ).rejects.toThrow(/belongs to member abc123/)
    await expect(
      connectAccount(t.deps, {
        workspaceId: t.workspaceId,
        platform: 'PROFESSIONAL_NET',
        connection: 'DIRECT_LOGIN',
        credentials: creds({ accessToken: 'wrong' }),
      }),
    ).rejects.toThrow(/revoked/)
    const before = fake.requests.length
    await expect(
      connectAccount(t.deps, {
        workspaceId: t.workspaceId,
        platform: 'PROFESSIONAL_NET',
        connection: 'DIRECT_LOGIN',
        credentials: creds({ expiresAt: '2026-11-01T00:00:00Z' }),
      }),
    ).rejects.toThrow(/expired/)
    expect(fake.requests.length).toBe(before)
  })

  it('escapes every reserved character of the little format, so the text arrives whole', async () => {
    const { fake, t, account } = await setup()
    const caption = 'Launch \\ | { } @ [ ] ( ) < > # * _ ~ done: #news @team (see [docs]) <3 *bold* _it_ ~x~ a|b {c}'
    const p = await createPost(t, { caption, accountIds: [account.id] })
    expect(await runDue(t, t.publishQueue)).toEqual(['published'])
    const [stored] = fake.state.posts
    expect(stored!.commentary).toBe(escapeLittleText(caption))
    expect(stored!.commentary).toContain('\\\\ \\| \\{ \\} \\@ \\[ \\] \\( \\) \\< \\> \\# \\* \\_ \\~')
    expect(unescapeLittleText(stored!.commentary)).toBe(caption)
    expect(stored!.body).toMatchObject({
      author: PERSON,
      visibility: 'PUBLIC',
      lifecycleState: 'PUBLISHED',
      isReshareDisabledByAuthor: false,
      distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
    })
    expect(stored!.content).toBeNull()
    const after = await getPost(t, p.id)
    expect(after.targets[0]).toMatchObject({
      status: 'PUBLISHED',
      platformPostId: stored!.urn,
      permalink: `https://www.linkedin.com/feed/update/${stored!.urn}/`,
    })
  })

  it('uploads one image and attaches it with its alt text', async () => {
    const { fake, t, account } = await setup()
    const bytes = await image(7)
    const mediaId = await storedMedia(t, { bytes, mimeType: 'image/jpeg', altText: 'A chart' })
    await createPost(t, { caption: 'One image', accountIds: [account.id], mediaIds: [mediaId] })
    expect(await runDue(t, t.publishQueue)).toEqual(['published'])
    const [asset] = [...fake.state.assets.values()]
    expect(asset!.owner).toBe(PERSON)
    expect(Buffer.compare(asset!.bytes!, Buffer.from(bytes))).toBe(0)
    expect(fake.state.posts[0]!.content).toEqual({ media: { id: asset!.urn, altText: 'A chart' } })
  })

  it('publishes 2-20 images as a multi-image post, waiting while an image processes', async () => {
    const { fake, clock, t, account } = await setup({ processingPolls: 1 })
    const all = [await image(1), await image(2), await image(3)]
    const mediaIds = [] as string[]
    for (const bytes of all) mediaIds.push(await storedMedia(t, { bytes, mimeType: 'image/jpeg' }))
    const p = await createPost(t, { type: 'CAROUSEL', caption: 'Three', accountIds: [account.id], mediaIds })
    expect(await runDue(t, t.publishQueue)).toEqual(['pending'])
    expect(fake.state.posts).toHaveLength(0)
    clock.set('2026-11-21T10:00:06Z')
    expect(await runDue(t, t.publishQueue)).toEqual(['published'])
    const urns = [...fake.state.assets.keys()]
    expect(urns).toHaveLength(3)
    expect(fake.calls('POST', '/rest/images')).toHaveLength(3)
    expect(fake.state.posts[0]!.content).toEqual({ multiImage: { images: urns.map((id) => ({ id })) } })
    all.forEach((bytes, i) =>
      expect(Buffer.compare(fake.state.assets.get(urns[i]!)!.bytes!, Buffer.from(bytes))).toBe(0),
    )
    expect((await getPost(t, p.id)).status).toBe('PUBLISHED')
  })

  it('uploads a video in the byte ranges given, finalises with the ETags, and posts once it is AVAILABLE', async () => {
    const { fake, clock, t, account } = await setup({ videoPartSize: 1000, processingPolls: 2 })
    const bytes = new Uint8Array(2500).map((_, i) => (i * 7) % 251)
    const mediaId = await storedMedia(t, { bytes, mimeType: 'video/mp4', width: 1280, height: 720, durationSec: 12 })
    await createPost(t, { caption: 'Video', accountIds: [account.id], mediaIds: [mediaId] })
    expect(await runDue(t, t.publishQueue)).toEqual(['pending'])
    const [video] = [...fake.state.assets.values()]
    expect(video!.parts.map((p) => p.bytes?.length)).toEqual([1000, 1000, 500])
    expect(Buffer.compare(video!.bytes!, Buffer.from(bytes))).toBe(0)
    expect(fake.calls('POST', '/rest/videos').map((r) => r.query.get('action'))).toEqual([
      'initializeUpload',
      'finalizeUpload',
    ])
    expect(fake.calls('POST', '/rest/videos')[1]!.json().finalizeUploadRequest.uploadedPartIds).toEqual(
      video!.parts.map((p) => p.etag),
    )
    clock.set('2026-11-21T10:00:16Z')
    expect(await runDue(t, t.publishQueue)).toEqual(['pending'])
    clock.set('2026-11-21T10:00:32Z')
    expect(await runDue(t, t.publishQueue)).toEqual(['published'])
    expect(fake.state.posts[0]!.content).toEqual({ media: { id: video!.urn } })
    expect(fake.calls('POST', '/rest/videos')).toHaveLength(2)
    expect(fake.calls('PUT', /^\/upload\/video\//)).toHaveLength(3)
  })

  it('resumes a video upload at the part that failed, without initialising it again', async () => {
    const { fake, clock, t, account } = await setup({ videoPartSize: 1000 })
    const bytes = new Uint8Array(2500).map((_, i) => (i * 13) % 251)
    const mediaId = await storedMedia(t, { bytes, mimeType: 'video/mp4', width: 1280, height: 720, durationSec: 12 })
    await createPost(t, { caption: 'Resumed video', accountIds: [account.id], mediaIds: [mediaId] })
    fake.failNext(/^PUT \/upload\/video\/[^/]+\/1$/, {
      status: 503,
      json: { status: 503, code: 'SERVICE_UNAVAILABLE', message: 'Service Unavailable' },
    })
    expect(await runDue(t, t.publishQueue)).toEqual(['retrying'])
    clock.set('2026-11-21T10:05:00Z')
    expect(await runDue(t, t.publishQueue)).toEqual(['published'])
    expect(fake.calls('POST', '/rest/videos').map((r) => r.query.get('action'))).toEqual([
      'initializeUpload',
      'finalizeUpload',
    ])
    expect(fake.calls('PUT', /\/0$/)).toHaveLength(1)
    expect(fake.calls('PUT', /\/1$/)).toHaveLength(2)
    expect(Buffer.compare([...fake.state.assets.values()][0]!.bytes!, Buffer.from(bytes))).toBe(0)
    expect(fake.state.posts).toHaveLength(1)
  })

  it('fails a video the network could not process, with its words', async () => {
    const { fake, t, account } = await setup({ processingPolls: 1 })
    fake.state.failProcessing = true
    const mediaId = await storedMedia(t, {
      bytes: new Uint8Array(300).fill(9),
      mimeType: 'video/mp4',
      width: 1280,
      height: 720,
      durationSec: 12,
    })
    const p = await createPost(t, { caption: 'Broken', accountIds: [account.id], mediaIds: [mediaId] })
    expect(await runDue(t, t.publishQueue)).toEqual(['failed'])
    expect((await getPost(t, p.id)).targets[0].error).toMatchObject({
      code: 'rejected',
      message: expect.stringMatching(/could not process the video/),
    })
    expect(fake.state.posts).toHaveLength(0)
  })

  it('turns a link with no media into an article card', async () => {
    const { fake, t, account } = await setup()
    await createPost(t, { caption: 'Read this', accountIds: [account.id], linkUrl: 'https://example.org/post/1' })
    expect(await runDue(t, t.publishQueue)).toEqual(['published'])
    expect(fake.state.posts[0]!.content).toEqual({
      article: { source: 'https://example.org/post/1', title: 'example.org' },
    })
  })

  it('fails an expired token as auth_expired without calling the network, and marks the account EXPIRED', async () => {
    const { fake, t } = await setup()
    const expired = await realAccount(
      t,
      'PROFESSIONAL_NET',
      'DIRECT_LOGIN',
      creds({ expiresAt: '2026-11-20T00:00:00.000Z' }),
    )
    const p = await createPost(t, { caption: 'Too late', accountIds: [expired.id] })
    expect(await runDue(t, t.publishQueue)).toEqual(['failed'])
    expect(fake.requests).toHaveLength(0)
    expect((await getPost(t, p.id)).targets[0].error).toMatchObject({
      code: 'auth_expired',
      message: expect.stringMatching(/^token expired: reconnect the account/),
    })
    const [row] = await t.deps.db.select().from(accounts).where(eq(accounts.id, expired.id))
    expect(row!.status).toBe('EXPIRED')
  })

  it('classifies a revoked token, a quota, a refusal and an outage', async () => {
    const { fake, clock, t, account } = await setup()
    fake.failNext(/^POST \/rest\/posts$/, {
      status: 429,
      json: {
        status: 429,
        serviceErrorCode: 101,
        code: 'TOO_MANY_REQUESTS',
        message: 'Resource level throttle APPLICATION DAY limit for calls to this resource is reached.',
      },
    })
    const limited = await createPost(t, { caption: 'Quota', accountIds: [account.id] })
    expect(await runDue(t, t.publishQueue)).toEqual(['retrying'])
    const [row] = await t.deps.db.select().from(targets).where(eq(targets.id, limited.targets[0].id))
    expect(row!.dueAt!.toISOString()).toBe('2026-11-22T00:00:00.000Z')
    expect(row!.error).toMatchObject({ code: 'rate_limited', message: expect.stringMatching(/DAY limit/) })

    fake.failNext(/^POST \/rest\/posts$/, {
      status: 500,
      json: { status: 500, code: 'INTERNAL_SERVER_ERROR', message: 'Internal Server Error' },
    })
    clock.set('2026-11-22T00:00:01Z')
    expect(await runDue(t, t.publishQueue)).toEqual(['retrying'])
    clock.set('2026-11-22T00:10:00Z')
    expect(await runDue(t, t.publishQueue)).toEqual(['published'])

    fake.failNext(/^POST \/rest\/posts$/, {
      status: 422,
      json: { status: 422, code: 'UNPROCESSABLE_ENTITY', message: 'commentary length is too long' },
    })
    const refused = await createPost(t, { caption: 'Refused', accountIds: [account.id] })
    expect(await runDue(t, t.publishQueue)).toEqual(['failed'])
    expect((await getPost(t, refused.id)).targets[0].error).toMatchObject({
      code: 'rejected',
      message: 'PROFESSIONAL_NET: commentary length is too long',
    })

    const dup = await createPost(t, { caption: 'Quota', accountIds: [account.id] })
    expect(await runDue(t, t.publishQueue)).toEqual(['failed'])
    expect((await getPost(t, dup.id)).targets[0].error.message).toMatch(
      /refused a duplicate of a post already published/,
    )

    fake.state.token = 'rotated-elsewhere'
    const revoked = await createPost(t, { caption: 'Revoked', accountIds: [account.id] })
    expect(await runDue(t, t.publishQueue)).toEqual(['failed'])
    expect((await getPost(t, revoked.id)).targets[0].error).toMatchObject({
      code: 'auth_expired',
      message: expect.stringMatching(/revoked by the user/),
    })
    expect(fake.state.posts).toHaveLength(1)
  })

  it('never posts twice when the answer to a created post is lost', async () => {
    const { fake, clock, t, account } = await setup()
    fake.state.loseNextPostAnswer = true
    const p = await createPost(t, { caption: 'Only once (really)', accountIds: [account.id] })
    expect(await runDue(t, t.publishQueue)).toEqual(['retrying'])
    clock.set('2026-11-21T10:05:00Z')
    expect(await runDue(t, t.publishQueue)).toEqual(['published'])
    expect(fake.state.posts).toHaveLength(1)
    expect(fake.calls('POST', '/rest/posts')).toHaveLength(1)
    expect((await getPost(t, p.id)).targets[0].platformPostId).toBe(fake.state.posts[0]!.urn)
  })

  it("settles an unconfirmed publish from the author's recent posts: found, or absent and sent once", async () => {
    const { fake, clock, t, account } = await setup()
    const found = await createPost(t, { caption: 'Lost track', accountIds: [account.id] })
    const [d1] = t.publishQueue.takeDue(new Date(8.64e15))
    await claimTarget(t.deps.db, d1!.targetId, d1!.version, clock.now(), 60)
    await t.deps.db
      .update(targets)
      .set({ progress: { postSent: true } })
      .where(eq(targets.id, d1!.targetId))
    fake.state.posts.push({
      urn: 'urn:li:share:7000000000000000042',
      author: PERSON,
      commentary: escapeLittleText('Lost track'),
      content: null,
      body: {},
    })
    clock.set('2026-11-21T10:02:00Z')
    expect(await sweepTargets(t.deps, { workspaceId: t.workspaceId })).toMatchObject({ confirmed: 1, unconfirmed: 0 })
    expect((await getPost(t, found.id)).targets[0]).toMatchObject({
      status: 'PUBLISHED',
      platformPostId: 'urn:li:share:7000000000000000042',
    })

    const absent = await createPost(t, { caption: 'Never sent', accountIds: [account.id] })
    const [d2] = t.publishQueue.takeDue(new Date(8.64e15))
    await claimTarget(t.deps.db, d2!.targetId, d2!.version, clock.now(), 60)
    await t.deps.db
      .update(targets)
      .set({ progress: { postSent: true } })
      .where(eq(targets.id, d2!.targetId))
    clock.set('2026-11-21T10:04:00Z')
    expect(await sweepTargets(t.deps, { workspaceId: t.workspaceId })).toMatchObject({ confirmed: 1 })
    await runDue(t, t.publishQueue)
    expect((await getPost(t, absent.id)).status).toBe('PUBLISHED')
    expect(fake.state.posts.filter((p) => p.commentary === 'Never sent')).toHaveLength(1)
  })

  it('deletes from the network with a token judged by the app clock, not the machine', async () => {
    // Valid until noon by the app's clock (10:00 that day); long expired by the machine's.
    const { fake, t } = await setup()
    const account = await realAccount(
      t,
      'PROFESSIONAL_NET',
      'DIRECT_LOGIN',
      creds({ expiresAt: '2026-11-21T12:00:00Z' }),
    )
    const post = await createPost(t, { caption: 'Gone by noon', accountIds: [account.id] })
    expect(await runDue(t, t.publishQueue)).toEqual(['published'])
    const res = await t.call('DELETE', `/v1/posts/${post.id}?fromNetworks=true`)
    expect(res.status).toBe(200)
    expect((await res.json()).targets[0]).toMatchObject({ outcome: 'deleted', error: null })
    expect(fake.state.posts).toHaveLength(0)
  })

  it('deletes a post by its URL-encoded URN, and reports no insights', async () => {
    const { fake, t, account } = await setup()
    await createPost(t, { caption: 'Delete me', accountIds: [account.id] })
    await runDue(t, t.publishQueue)
    const urn = fake.state.posts[0]!.urn
    const adapter = t.deps.networks.adapterFor('PROFESSIONAL_NET', 'DIRECT_LOGIN')!
    expect(adapter.fetchInsights).toBeUndefined()
    await adapter.deletePost!({
      connection: 'DIRECT_LOGIN',
      credentials: creds(),
      platformPostId: urn,
      fetch,
      baseUrl: fake.url,
      now: t.deps.clock.now(),
    })
    expect(fake.calls('DELETE', `/rest/posts/${encodeURIComponent(urn)}`)).toHaveLength(1)
    expect(fake.state.posts).toHaveLength(0)
  })
})
