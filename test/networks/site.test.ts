/**
 * The site publishing network through its fake (WordPress REST API wp/v2): posts and pages through
 * the engine with title, HTML content, excerpt, categories, tags, slug, status and a featured
 * image; refusals in words; 429 and 5xx; a lost answer reconciled through the author's posts; a
 * revoked application password; a WordPress.com site through its token; delete to the trash;
 * comment counts.
 */
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { accounts, targets } from '../../src/db/schema'
import { connectAccount } from '../../src/services/accounts/connection'
import { startSiteFake } from '../fakes/site'
import { jpeg, paint } from '../support/media'
import { runDue } from '../support/engine'
import { fixedClock, realAccount, storedMedia } from '../support/fixtures'
import { createTestApp, type TestApp } from '../support/test-app'

async function setup() {
  const clock = fixedClock('2026-11-21T10:00:00Z')
  const fake = await startSiteFake({ now: clock.now })
  const t = await createTestApp({
    clock,
    networks: { origins: { SITE_NET_API_URL: fake.url } },
    publishing: { backoffBaseSec: 10, maxAttempts: 5, leaseSec: 60, sweepGraceSec: 30, random: () => 0.5 },
  })
  const creds = { siteUrl: fake.url, username: fake.self.username, applicationPassword: fake.self.applicationPassword }
  const acct = await realAccount(t, 'SITE_NET', 'APP_PASSWORD', creds, 'site:7')
  return { t, clock, fake, acct, creds }
}

const createPost = async (t: TestApp, accountId: string, body: Record<string, unknown>) =>
  (
    await t.call('POST', '/v1/posts', {
      body: { type: 'IMAGE', mediaIds: [], accountIds: [accountId], action: 'now', ...body },
    })
  ).json()
const getPost = async (t: TestApp, id: string) => (await t.call('GET', `/v1/posts/${id}`)).json()
const adapter = (t: TestApp) => t.deps.networks.adapterFor('SITE_NET', 'APP_PASSWORD')!

describe('SITE_NET adapter', () => {
  it('connects with an application password; refuses a wrong one in words, and a private site address', async () => {
    const { t, fake, creds } = await setup()
    const input = { workspaceId: t.workspaceId, platform: 'SITE_NET' as const, connection: 'APP_PASSWORD' as const }
    const added = await connectAccount(t.deps, { ...input, credentials: creds })
    expect(added).toMatchObject({ username: `wren on ${new URL(fake.url).host}`, status: 'ACTIVE' })
    await expect(
      connectAccount(t.deps, { ...input, credentials: { ...creds, applicationPassword: 'nope' } }),
    ).rejects.toThrow(/invalid application password/)
    const guarded = await createTestApp({ allowPrivateUrls: false })
    await expect(
      connectAccount(guarded.deps, {
        workspaceId: guarded.workspaceId,
        platform: 'SITE_NET',
        connection: 'APP_PASSWORD',
        credentials: { ...creds, siteUrl: 'https://127.0.0.1' },
      }),
    ).rejects.toThrow(/siteUrl/)
  })

  it('publishes a post: escaped HTML paragraphs, excerpt, categories, tags (a new one made), slug, featured image', async () => {
    const { t, fake, acct } = await setup()
    const bytes = await jpeg(paint(60, 30, () => [30, 120, 200]))
    const media = await storedMedia(t, { bytes, mimeType: 'image/jpeg', altText: 'A blue sky' })
    const p = await createPost(t, acct.id, {
      title: 'Release 2.0',
      caption: 'First <b>line</b> & more\nsame paragraph\n\nSecond paragraph',
      mediaIds: [media],
      targetOptions: {
        [acct.id]: {
          excerpt: 'What is new',
          categories: ['News & Notes', 'releases'],
          tags: ['API', 'launch'],
          slug: 'release-2',
        },
      },
    })
    await runDue(t, t.publishQueue)
    const after = await getPost(t, p.id)
    expect(after.status).toBe('PUBLISHED')
    const [post] = fake.self.site.posts
    expect(post).toMatchObject({
      type: 'post',
      title: 'Release 2.0',
      content: '<p>First &lt;b&gt;line&lt;/b&gt; &amp; more<br>\nsame paragraph</p>\n\n<p>Second paragraph</p>',
      excerpt: 'What is new',
      status: 'publish',
      slug: 'release-2',
      categories: [5, 6],
    })
    const launch = fake.self.site.tags.find((x) => x.name === 'launch')!
    expect(post!.tags).toEqual([20, launch.id])
    const [image] = fake.self.site.media
    expect(post!.featured_media).toBe(image!.id)
    expect(image).toMatchObject({ mimeType: 'image/jpeg', alt_text: 'A blue sky' })
    expect(image!.bytes.equals(Buffer.from(bytes))).toBe(true)
    expect(fake.server.calls('POST', '/wp-json/wp/v2/media')[0]!.headers['content-disposition']).toMatch(
      /^attachment; filename=".+\.jpg"$/,
    )
    expect(after.targets[0]).toMatchObject({ platformPostId: String(post!.id), permalink: `${fake.url}/release-2/` })
  })

  it("publishes a draft page and a private post, the caption's first line as the title when none is set", async () => {
    const { t, fake, acct } = await setup()
    await createPost(t, acct.id, {
      caption: 'About us\nWe write.',
      targetOptions: { [acct.id]: { kind: 'page', status: 'draft' } },
    })
    await createPost(t, acct.id, {
      caption: 'Only editors',
      title: 'Private note',
      targetOptions: { [acct.id]: { status: 'private' } },
    })
    await runDue(t, t.publishQueue)
    expect(fake.self.site.posts.map((x) => [x.type, x.title, x.status])).toEqual([
      ['page', 'About us', 'draft'],
      ['post', 'Private note', 'private'],
    ])
  })

  it('refuses in words: an unknown category, categories on a page, a status the site does not take', async () => {
    const { t, fake, acct } = await setup()
    const unknown = await createPost(t, acct.id, {
      title: 'T',
      caption: 'x',
      targetOptions: { [acct.id]: { categories: ['Nowhere'] } },
    })
    const onPage = await createPost(t, acct.id, {
      title: 'T',
      caption: 'x',
      targetOptions: { [acct.id]: { kind: 'page', tags: ['api'] } },
    })
    await runDue(t, t.publishQueue)
    expect((await getPost(t, unknown.id)).targets[0]).toMatchObject({
      status: 'FAILED',
      error: { code: 'rejected', message: 'SITE_NET: the site has no category "Nowhere"; create it there first.' },
    })
    expect((await getPost(t, onPage.id)).targets[0].error.message).toMatch(/a page takes no categories or tags/)
    expect(fake.self.site.posts).toHaveLength(0)
    const bad = await t.call('POST', '/v1/posts', {
      body: {
        type: 'IMAGE',
        mediaIds: [],
        accountIds: [acct.id],
        action: 'now',
        caption: 'x',
        targetOptions: { [acct.id]: { status: 'scheduled' } },
      },
    })
    expect(bad.status).toBe(422)
    expect(JSON.stringify(await bad.json())).toContain(`targetOptions.${acct.id}.status`)
  })

  it('waits out a 429, retries a 5xx, and a lost answer never makes a second post', async () => {
    const { t, clock, fake, acct } = await setup()
    fake.server.fault('POST', '/wp-json/wp/v2/posts', { kind: 'rate-limit', retryAfterSec: 60 })
    const p = await createPost(t, acct.id, { title: 'Once', caption: 'body' })
    await runDue(t, t.publishQueue)
    const target = (await getPost(t, p.id)).targets[0]
    expect(target).toMatchObject({ status: 'PENDING', error: { code: 'rate_limited' } })
    const [row] = await t.deps.db.select().from(targets).where(eq(targets.id, target.id))
    expect(row!.dueAt!.getTime()).toBeGreaterThanOrEqual(Date.parse('2026-11-21T10:01:00Z'))

    fake.server.fault('POST', '/wp-json/wp/v2/posts', { kind: 'status', status: 502 })
    clock.set('2026-11-21T10:02:00Z')
    await runDue(t, t.publishQueue)
    expect((await getPost(t, p.id)).targets[0]).toMatchObject({ status: 'PENDING', error: { code: 'transient' } })

    // The post is made, but its answer is lost: the retry finds it among the author's posts.
    fake.server.fault('POST', '/wp-json/wp/v2/posts', { kind: 'reset' }, { after: true })
    clock.set('2026-11-21T10:05:00Z')
    await runDue(t, t.publishQueue)
    expect(fake.self.site.posts).toHaveLength(1)
    clock.set('2026-11-21T10:10:00Z')
    await runDue(t, t.publishQueue)
    const after = await getPost(t, p.id)
    expect(after.status).toBe('PUBLISHED')
    expect(after.targets[0].platformPostId).toBe(String(fake.self.site.posts[0]!.id))
    expect(fake.self.site.posts).toHaveLength(1)
    const search = fake.server.calls('GET', '/wp-json/wp/v2/posts').at(-1)!.query
    expect([search.get('status'), search.get('search'), search.get('author')]).toEqual(['any', 'Once', '7'])
  })

  it('settles an unconfirmed publish through checkStatus: absent when never sent, found when it was', async () => {
    const { t, clock, fake, creds } = await setup()
    const content = {
      platform: 'SITE_NET' as const,
      type: 'IMAGE' as const,
      text: 'body',
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
      title: 'Crash',
      destinationId: null,
      targetOptions: {},
    }
    const base = {
      idempotencyKey: 'tgt_1',
      accountId: 'acc_1',
      connection: 'APP_PASSWORD',
      credentials: creds,
      content,
      attempt: 1,
      fetch,
      baseUrl: fake.url,
      now: clock.now(),
      saveProgress: async () => {},
    }
    const sentAt = clock.now().toISOString()
    expect(await adapter(t).checkStatus!({ ...base, progress: { sentAt }, unconfirmed: true })).toEqual({
      status: 'absent',
    })
    await adapter(t).publish({ ...base, progress: {} })
    expect(await adapter(t).checkStatus!({ ...base, progress: { sentAt }, unconfirmed: true })).toMatchObject({
      status: 'published',
      platformPostId: String(fake.self.site.posts[0]!.id),
    })
  })

  it('marks the account EXPIRED when the application password is revoked', async () => {
    const { t, fake, acct } = await setup()
    fake.revokeApplicationPassword()
    const p = await createPost(t, acct.id, { title: 'T', caption: 'x' })
    await runDue(t, t.publishQueue)
    expect((await getPost(t, p.id)).targets[0]).toMatchObject({
      status: 'FAILED',
      error: { code: 'auth_expired', message: expect.stringContaining('reconnect the account') },
    })
    const [row] = await t.deps.db.select().from(accounts).where(eq(accounts.id, acct.id))
    expect(row!.status).toBe('EXPIRED')
  })

  it('publishes to a WordPress.com site through its token, at /wp/v2/sites/{site}', async () => {
    const { t, fake } = await setup()
    fake.tokens.add('wpcom-token')
    const acct = await realAccount(t, 'SITE_NET', 'DIRECT_LOGIN', { accessToken: 'wpcom-token', siteId: '502' }, '502')
    const p = await createPost(t, acct.id, { title: 'Soup', caption: 'Hot' })
    await runDue(t, t.publishQueue)
    expect((await getPost(t, p.id)).status).toBe('PUBLISHED')
    expect(fake.hostedSites.get('502')!.site.posts.map((x) => x.title)).toEqual(['Soup'])
    expect(fake.server.calls('POST', '/wp/v2/sites/502/posts')[0]!.headers.authorization).toBe('Bearer wpcom-token')
  })

  it('deletes to the trash (a post, then a page; twice is fine) and reads comment counts', async () => {
    const { t, clock, fake, acct, creds } = await setup()
    const post = await createPost(t, acct.id, { title: 'Post', caption: 'x' })
    await createPost(t, acct.id, { title: 'Page', caption: 'x', targetOptions: { [acct.id]: { kind: 'page' } } })
    await runDue(t, t.publishQueue)
    const [made, page] = fake.self.site.posts
    made!.comments = 4
    const base = { connection: 'APP_PASSWORD', credentials: creds, fetch, baseUrl: fake.url, now: clock.now() }
    const insights = await adapter(t).fetchInsights!({
      ...base,
      accountId: acct.id,
      posts: [{ targetId: 'tgt_a', platformPostId: String(made!.id), publishedAt: clock.now() }],
    })
    expect(insights).toEqual({
      followers: null,
      posts: [{ targetId: 'tgt_a', likes: null, comments: 4, shares: null, views: null, saves: null }],
    })
    const res = await t.call('DELETE', `/v1/posts/${post.id}?fromNetworks=true`)
    expect((await res.json()).targets[0]).toMatchObject({ outcome: 'deleted' })
    expect(made!.status).toBe('trash')
    await adapter(t).deletePost!({ ...base, platformPostId: String(made!.id) })
    await adapter(t).deletePost!({ ...base, platformPostId: String(page!.id) })
    expect(page!.status).toBe('trash')
    await adapter(t).deletePost!({ ...base, platformPostId: '99999' })
  })
})
