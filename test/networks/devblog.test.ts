/**
 * The developer blogging network through its fake (Forem API v1): articles published through the
 * engine with title, Markdown body, options and cover, refusals in the network's words, 429 and
 * 5xx, a lost answer reconciled through the account's own articles, a refused key, metrics, and no
 * delete.
 */
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { accounts, targets } from '../../src/db/schema'
import { RULES } from '../../src/domain/rules'
import { connectAccount } from '../../src/services/accounts/connection'
import { startDevblogFake } from '../fakes/devblog'
import { jpeg, paint } from '../support/media'
import { runDue } from '../support/engine'
import { fixedClock, realAccount, storedMedia } from '../support/fixtures'
import { createTestApp, type TestApp } from '../support/test-app'

async function setup() {
  const clock = fixedClock('2026-11-21T10:00:00Z')
  const fake = await startDevblogFake({ now: clock.now })
  const t = await createTestApp({
    clock,
    networks: { origins: { DEVBLOG_NET_API_URL: fake.url } },
    publishing: { backoffBaseSec: 10, maxAttempts: 3, leaseSec: 60, sweepGraceSec: 30, random: () => 0.5 },
  })
  const creds = { apiKey: fake.apiKey }
  const acct = await realAccount(t, 'DEVBLOG_NET', 'API_KEY', creds, '4242')
  return { t, clock, fake, acct, creds }
}

const createPost = async (t: TestApp, accountId: string, body: Record<string, unknown>) =>
  t.call('POST', '/v1/posts', {
    body: { type: 'IMAGE', mediaIds: [], accountIds: [accountId], action: 'now', ...body },
  })
const getPost = async (t: TestApp, id: string) => (await t.call('GET', `/v1/posts/${id}`)).json()
const adapter = (t: TestApp) => t.deps.networks.adapterFor('DEVBLOG_NET', 'API_KEY')!

describe('DEVBLOG_NET adapter', () => {
  it('connects with an API key (users/me) and refuses a wrong one', async () => {
    const { t, fake } = await setup()
    const input = { workspaceId: t.workspaceId, platform: 'DEVBLOG_NET' as const, connection: 'API_KEY' as const }
    const added = await connectAccount(t.deps, { ...input, credentials: { apiKey: fake.apiKey } })
    expect(added).toMatchObject({ username: 'ada_writes', status: 'ACTIVE' })
    const [row] = await t.deps.db.select().from(accounts).where(eq(accounts.id, added.id))
    expect(row!.externalId).toBe('4242')
    await expect(connectAccount(t.deps, { ...input, credentials: { apiKey: 'wrong' } })).rejects.toThrow(/unauthorized/)
  })

  it('publishes an article: title, Markdown body, tags, canonical URL, description, series, cover by URL', async () => {
    const { t, fake, acct } = await setup()
    const media = await storedMedia(t, { bytes: await jpeg(paint(40, 20, () => [0, 90, 200])), mimeType: 'image/jpeg' })
    const caption = '## Why\n\nBecause *Markdown* works.\n\n```ts\nconst a = 1 < 2\n```'
    const res = await createPost(t, acct.id, {
      caption,
      title: 'Shipping articles from an API',
      mediaIds: [media],
      targetOptions: {
        [acct.id]: {
          tags: ['typescript', 'api'],
          canonicalUrl: 'https://blog.example.com/shipping',
          description: 'How we publish',
          series: 'Publishing',
        },
      },
    })
    expect(res.status).toBe(200)
    const post = await res.json()
    await runDue(t, t.publishQueue)
    const after = await getPost(t, post.id)
    expect(after.status).toBe('PUBLISHED')
    const [article] = fake.state.articles
    expect(article).toMatchObject({
      title: 'Shipping articles from an API',
      body_markdown: caption,
      published: true,
      tags: ['typescript', 'api'],
      canonical_url: 'https://blog.example.com/shipping',
      description: 'How we publish',
      series: 'Publishing',
    })
    expect(article!.main_image).toMatch(/^https?:\/\//)
    expect(after.targets[0]).toMatchObject({
      platformPostId: String(article!.id),
      permalink: `${fake.url}/ada_writes/article-${article!.id}`,
    })
    const create = fake.server.calls('POST', '/api/articles')[0]!
    expect(create.headers['api-key']).toBe(fake.apiKey)
    expect(create.headers.accept).toBe('application/vnd.forem.api-v1+json')
    expect(fake.state.withoutV1).toBe(0)
  })

  it("takes the caption's first line as the title when none is set, and keeps a draft unpublished", async () => {
    const { t, fake, acct } = await setup()
    const post = await (
      await createPost(t, acct.id, {
        caption: 'A title from the first line\nAnd the body.',
        targetOptions: { [acct.id]: { published: false } },
      })
    ).json()
    await runDue(t, t.publishQueue)
    expect((await getPost(t, post.id)).status).toBe('PUBLISHED')
    expect(fake.state.articles[0]).toMatchObject({
      title: 'A title from the first line',
      published: false,
      published_at: null,
      main_image: null,
    })
  })

  it('refuses at create what the network would refuse: a long title, five tags, a tag with a space, a video', async () => {
    const { t, acct } = await setup()
    const refusal = async (body: Record<string, unknown>) => {
      const res = await createPost(t, acct.id, { caption: 'Body', ...body })
      expect(res.status).toBe(422)
      return JSON.stringify(await res.json())
    }
    expect(await refusal({ title: 'x'.repeat(129) })).toMatch(/title/i)
    expect(await refusal({ targetOptions: { [acct.id]: { tags: ['a', 'b', 'c', 'd', 'e'] } } })).toContain(
      `targetOptions.${acct.id}.tags`,
    )
    expect(await refusal({ targetOptions: { [acct.id]: { tags: ['x'.repeat(31)] } } })).toContain(
      `targetOptions.${acct.id}.tags`,
    )
    expect(await refusal({ targetOptions: { [acct.id]: { canonicalUrl: 'not a url' } } })).toContain(
      `targetOptions.${acct.id}.canonicalUrl`,
    )
    expect(await refusal({ targetOptions: { [acct.id]: { published: 'yes' } } })).toContain(
      `targetOptions.${acct.id}.published`,
    )
    expect(RULES.DEVBLOG_NET.media.video).toBeNull()
    expect(RULES.DEVBLOG_NET.title).toMatchObject({ maxLength: 128, required: true, field: 'title' })
  })

  it("fails with the network's words on 422 (a tag it refuses), waits out a 429's Retry-After, retries a 5xx", async () => {
    const { t, clock, fake, acct } = await setup()
    const refused = await (
      await createPost(t, acct.id, { caption: 'Body', title: 'T', targetOptions: { [acct.id]: { tags: ['c++'] } } })
    ).json()
    await runDue(t, t.publishQueue)
    expect((await getPost(t, refused.id)).targets[0]).toMatchObject({
      status: 'FAILED',
      error: { code: 'rejected', message: expect.stringContaining('DEVBLOG_NET: Tag "c++" contains non-alphanumeric') },
    })

    fake.server.fault('POST', '/api/articles', {
      kind: 'rate-limit',
      retryAfterSec: 30,
      json: { error: 'Rate limit reached, try again in 30 seconds', status: 429 },
    })
    const post = await (await createPost(t, acct.id, { caption: 'Body', title: 'Rate limited' })).json()
    await runDue(t, t.publishQueue)
    const target = (await getPost(t, post.id)).targets[0]
    expect(target).toMatchObject({ status: 'PENDING', error: { code: 'rate_limited' } })
    const [row] = await t.deps.db.select().from(targets).where(eq(targets.id, target.id))
    expect(row!.dueAt!.getTime()).toBeGreaterThanOrEqual(Date.parse('2026-11-21T10:00:30Z'))

    fake.server.fault('POST', '/api/articles', { kind: 'status', status: 503, json: { error: 'unavailable' } })
    clock.set('2026-11-21T10:01:00Z')
    await runDue(t, t.publishQueue)
    expect((await getPost(t, post.id)).targets[0]).toMatchObject({ status: 'PENDING', error: { code: 'transient' } })
    clock.set('2026-11-21T10:05:00Z')
    await runDue(t, t.publishQueue)
    expect((await getPost(t, post.id)).status).toBe('PUBLISHED')
    expect(fake.state.articles.map((a) => a.title)).toEqual(['Rate limited'])
  })

  it("a lost answer never makes a second article: the retry finds it among the account's own", async () => {
    const { t, clock, fake, acct } = await setup()
    fake.server.fault('POST', '/api/articles', { kind: 'reset' }, { after: true })
    const post = await (await createPost(t, acct.id, { caption: 'Body once', title: 'Exactly once' })).json()
    await runDue(t, t.publishQueue)
    expect(fake.state.articles).toHaveLength(1)
    expect((await getPost(t, post.id)).targets[0].status).toBe('PENDING')
    clock.set('2026-11-21T10:05:00Z')
    await runDue(t, t.publishQueue)
    const after = await getPost(t, post.id)
    expect(after.status).toBe('PUBLISHED')
    expect(fake.state.articles).toHaveLength(1)
    expect(after.targets[0].platformPostId).toBe(String(fake.state.articles[0]!.id))
    expect(fake.server.calls('POST', '/api/articles')).toHaveLength(1)
    expect(fake.server.calls('GET', '/api/articles/me/all').length).toBeGreaterThan(0)
  })

  it('settles an unconfirmed publish: found when it went out, absent when it never did', async () => {
    const { t, clock, fake, creds } = await setup()
    const base = {
      idempotencyKey: 'tgt_1',
      accountId: 'acc_1',
      connection: 'API_KEY',
      credentials: creds,
      attempt: 1,
      fetch,
      baseUrl: fake.url,
      now: clock.now(),
      saveProgress: async () => {},
      unconfirmed: true,
    }
    const content = {
      platform: 'DEVBLOG_NET' as const,
      type: 'IMAGE' as const,
      text: 'Body',
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
      title: 'Sent before the crash',
      destinationId: null,
      targetOptions: {},
    }
    expect(await adapter(t).checkStatus!({ ...base, content, progress: {} })).toEqual({ status: 'absent' })
    const sentAt = clock.now().toISOString()
    expect(await adapter(t).checkStatus!({ ...base, content, progress: { sentAt } })).toEqual({ status: 'absent' })
    const { unconfirmed: _no, ...publishInput } = base
    const made = await adapter(t).publish({ ...publishInput, content, progress: {} })
    expect(made.status).toBe('published')
    const found = await adapter(t).checkStatus!({ ...base, content, progress: { sentAt } })
    expect(found).toMatchObject({ status: 'published', platformPostId: String(fake.state.articles[0]!.id) })
    // Another article with the same title, published long before this attempt, is not ours.
    const later = new Date(clock.now().getTime() + 3600_000).toISOString()
    expect(await adapter(t).checkStatus!({ ...base, content, progress: { sentAt: later } })).toEqual({
      status: 'absent',
    })
  })

  it('marks the account EXPIRED when the network refuses the key (reconnect with a new one)', async () => {
    const { t, fake, acct } = await setup()
    fake.revokeKeys()
    const post = await (await createPost(t, acct.id, { caption: 'Body', title: 'T' })).json()
    await runDue(t, t.publishQueue)
    expect((await getPost(t, post.id)).targets[0]).toMatchObject({
      status: 'FAILED',
      error: { code: 'auth_expired', message: expect.stringContaining('reconnect the account') },
    })
    const [row] = await t.deps.db.select().from(accounts).where(eq(accounts.id, acct.id))
    expect(row!.status).toBe('EXPIRED')
  })

  it("reads reactions, comments and page views from the author's articles; has no delete", async () => {
    const { t, clock, fake, acct, creds } = await setup()
    const post = await (await createPost(t, acct.id, { caption: 'Body', title: 'Measured' })).json()
    await runDue(t, t.publishQueue)
    Object.assign(fake.state.articles[0]!, { public_reactions_count: 12, comments_count: 3, page_views_count: 480 })
    const insights = await adapter(t).fetchInsights!({
      accountId: acct.id,
      connection: 'API_KEY',
      credentials: creds,
      fetch,
      baseUrl: fake.url,
      now: clock.now(),
      posts: [
        { targetId: 'tgt_a', platformPostId: String(fake.state.articles[0]!.id), publishedAt: clock.now() },
        { targetId: 'tgt_b', platformPostId: '1', publishedAt: clock.now() },
      ],
    })
    expect(insights).toEqual({
      followers: null,
      posts: [
        { targetId: 'tgt_a', likes: 12, comments: 3, shares: null, views: 480, saves: null },
        { targetId: 'tgt_b', likes: null, comments: null, shares: null, views: null, saves: null },
      ],
    })
    expect(RULES.DEVBLOG_NET.deleteSupported).toBe(false)
    expect(adapter(t).deletePost).toBeUndefined()
    const res = await t.call('DELETE', `/v1/posts/${post.id}?fromNetworks=true`)
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(body.targets[0]).toMatchObject({ outcome: 'not_supported' })
    expect(fake.state.articles).toHaveLength(1)
  })
})
