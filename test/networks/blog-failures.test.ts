import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { targets } from '../../src/db/schema'
import { claimTarget } from '../../src/services/publishing/claim'
import { sweepTargets } from '../../src/services/publishing/sweep'
import { buildTargetContent } from '../../src/services/publishing/target-content'
import { runDue } from '../support/engine'
import { storedMedia } from '../support/fixtures'
import { mp4 } from '../support/media'
import {
  CREDS,
  START,
  blogPost,
  getPost,
  photo,
  publishDirect,
  setupBlog,
  storedCredentials,
  targetOf,
} from './blog-setup'

const POSTS = /^POST \/v2\/blog\/[^/]+\/posts$/
const since = (iso: string) => new Date(iso).getTime()

describe('BLOG_NET limits', () => {
  it('refuses more than 30 images, a second video and a caption over the budget before publishing', async () => {
    const { t, account } = await setupBlog()
    const one = await photo(t, [1, 2, 3])
    const many = Array.from({ length: 31 }, () => one.id)
    const create = (body: Record<string, unknown>) =>
      t.call('POST', '/v1/posts', { body: { type: 'IMAGE', accountIds: [account.id], action: 'now', ...body } })
    const tooMany = await create({ caption: 'Too many', mediaIds: many })
    expect(tooMany.status).toBe(422)
    expect(JSON.stringify(await tooMany.json())).toMatch(/BLOG_NET/)
    const clip = () =>
      storedMedia(t, {
        bytes: mp4({ durationSec: 5, width: 720, height: 1280 }),
        mimeType: 'video/mp4',
        width: 720,
        height: 1280,
        durationSec: 5,
      })
    const twoVideos = await create({ caption: 'Two clips', mediaIds: [await clip(), await clip()] })
    expect(twoVideos.status).toBe(422)
    // The caption budget is this service's cap on any caption, under the network's 1 MB post.
    const long = await create({ caption: 'a'.repeat(100_001), mediaIds: [] })
    expect(long.status).toBe(400)
    expect(JSON.stringify(await long.json())).toMatch(/caption/)
  })

  it('refuses at create, naming the option: 31 tags, a tag over 140 characters, a state not listed, a source that is no URL', async () => {
    const { t, account } = await setupBlog()
    const cases: Array<[string, unknown]> = [
      ['tags', Array.from({ length: 31 }, (_, i) => `t${i}`)],
      ['tags', ['x'.repeat(141)]],
      ['state', 'scheduled'],
      ['sourceUrl', 'not a url'],
    ]
    for (const [key, value] of cases) {
      const res = await t.call('POST', '/v1/posts', {
        body: {
          type: 'IMAGE',
          accountIds: [account.id],
          mediaIds: [],
          action: 'now',
          caption: 'Options',
          targetOptions: { [account.id]: { [key]: value } },
        },
      })
      expect(res.status, key).toBe(422)
      expect((await res.json()).error, key).toMatchObject({
        code: 'invalid_option',
        details: [expect.objectContaining({ path: `targetOptions.${account.id}.${key}` })],
      })
    }
  })

  // The adapter's own check, whatever the validator let through (an older post, a changed rule).
  it('refuses in words, without calling the network: 31 tags, a tag over 140 characters, a comma in a tag, an unknown state', async () => {
    const s = await setupBlog()
    const p = await blogPost(s.t, s.account.id, { caption: 'Tagged', action: 'draft' })
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ tags: Array.from({ length: 31 }, (_, i) => `t${i}`) }, /at most 30 tags \(31 given\)/],
      [{ tags: ['x'.repeat(141)] }, /a tag is at most 140 characters/],
      [{ tags: ['salt, pepper'] }, /cannot contain a comma/],
      [{ state: 'scheduled' }, /state must be one of published, draft, queue, private/],
    ]
    for (const [targetOptions, words] of cases) {
      const { result } = await publishDirect(s, p.id, { targetOptions })
      expect(result).toMatchObject({ status: 'failed', kind: 'rejected', message: expect.stringMatching(words) })
    }
    expect(s.fake.calls('POST', /\/posts$/)).toHaveLength(0)
  })

  it('refuses a post of more than 1,000 blocks (lines) in words', async () => {
    const s = await setupBlog()
    const p = await blogPost(s.t, s.account.id, { caption: 'x\n'.repeat(1001), action: 'draft' })
    const { result } = await publishDirect(s, p.id, {})
    expect(result).toMatchObject({ status: 'failed', kind: 'rejected', message: expect.stringMatching(/1000 blocks/) })
  })
})

describe('BLOG_NET failures, retries and exactly once', () => {
  it('waits on a 429 (a minute when no wait is named) and on a spent daily allowance; 400 is refused in its words; 5xx retried', async () => {
    const { t, fake, account, advance } = await setupBlog()
    fake.failNextError(429, 0, 'Limit Exceeded', undefined, POSTS)
    const a = await blogPost(t, account.id, { caption: 'Limited' })
    await runDue(t, t.publishQueue)
    const rowA = await targetOf(t, a.id)
    expect(rowA.error).toMatchObject({ code: 'rate_limited', message: 'BLOG_NET: Limit Exceeded' })
    expect(rowA.dueAt!.getTime() - since(START)).toBe(60_000)
    fake.failNextError(403, 8023, 'You have reached your daily post limit.', undefined, POSTS)
    advance(60)
    await runDue(t, t.publishQueue)
    expect((await targetOf(t, a.id)).dueAt!.getTime() - since(START)).toBe(60_000 + 3_600_000)
    advance(3600)
    await runDue(t, t.publishQueue)
    expect((await getPost(t, a.id)).targets[0].status).toBe('PUBLISHED')

    fake.failNextError(400, 8001, "'content' must be an array", undefined, POSTS)
    const b = await blogPost(t, account.id, { caption: 'Refused' })
    await runDue(t, t.publishQueue)
    expect((await getPost(t, b.id)).targets[0]).toMatchObject({
      status: 'FAILED',
      error: { code: 'rejected', message: "BLOG_NET: 'content' must be an array" },
    })
    fake.failNextError(503, 0, 'Posting is disabled for now.', { 'retry-after': '30' }, POSTS)
    const c = await blogPost(t, account.id, { caption: 'Flaky' })
    await runDue(t, t.publishQueue)
    expect((await getPost(t, c.id)).targets[0]).toMatchObject({ status: 'PENDING', error: { code: 'transient' } })
    advance(600)
    await runDue(t, t.publishQueue)
    expect((await getPost(t, c.id)).targets[0].status).toBe('PUBLISHED')
    expect(fake.state.posts.map((p) => p.content[0]!.text).sort()).toEqual(['Flaky', 'Limited'])
  })

  it('a 502 after the network made the post: the retry finds it on the blog and creates nothing twice', async () => {
    const { t, fake, account, advance } = await setupBlog()
    const img = await photo(t, [9, 90, 9])
    fake.fault('POST', /^\/v2\/blog\/[^/]+\/posts$/, { kind: 'status', status: 502 }, { after: true })
    const p = await blogPost(t, account.id, { caption: 'Only once', mediaIds: [img.id] })
    await runDue(t, t.publishQueue)
    expect((await getPost(t, p.id)).targets[0].status).toBe('PENDING')
    expect(fake.state.posts).toHaveLength(1)
    advance(600)
    await runDue(t, t.publishQueue)
    const target = (await getPost(t, p.id)).targets[0]
    expect(target).toMatchObject({ status: 'PUBLISHED', platformPostId: fake.state.posts[0]!.id })
    expect(fake.state.posts).toHaveLength(1)
    expect(fake.calls('GET', /\/posts$/)[0]!.query.get('npf')).toBe('true')
  })

  it('settles a publish it lost track of: the post found on the blog, or absent and published once', async () => {
    const { t, fake, account, adapter, clock } = await setupBlog()
    const p = await blogPost(t, account.id, { caption: 'Lost post' })
    const [d] = t.publishQueue.takeDue(new Date(8.64e15))
    const claimed = (await claimTarget(t.deps.db, d!.targetId, d!.version, clock.now(), 60))!
    const content = await buildTargetContent(t.deps.db, claimed.post, account.id, 'BLOG_NET')
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
      // The id is lost with the answer: only the attempt's time reaches the database.
      saveProgress: async (next) => {
        if (next.headId) return
        Object.assign(saved, next)
        await t.deps.db
          .update(targets)
          .set({ progress: { ...saved } })
          .where(eq(targets.id, d!.targetId))
      },
    })
    const q = await blogPost(t, account.id, { caption: 'Never sent' })
    const [e] = t.publishQueue.takeDue(new Date(8.64e15))
    await claimTarget(t.deps.db, e!.targetId, e!.version, clock.now(), 60)
    clock.set('2026-11-21T10:05:00Z')
    await sweepTargets(t.deps, { workspaceId: t.workspaceId })
    expect((await getPost(t, p.id)).targets[0]).toMatchObject({
      status: 'PUBLISHED',
      platformPostId: fake.state.posts[0]!.id,
    })
    await runDue(t, t.publishQueue)
    expect((await getPost(t, q.id)).targets[0].status).toBe('PUBLISHED')
    expect(fake.state.posts.map((x) => x.content[0]!.text).sort()).toEqual(['Lost post', 'Never sent'])
  })

  it('looks for a lost draft among the drafts, matching tags too', async () => {
    const s = await setupBlog()
    const p = await blogPost(s.t, s.account.id, { caption: 'Draft me', action: 'draft' })
    const extra = { targetOptions: { state: 'draft', tags: ['wip'] } }
    const first = await publishDirect(s, p.id, extra)
    expect(first.result).toMatchObject({ status: 'published' })
    const again = await publishDirect(s, p.id, extra, { headAttemptAt: first.saved.headAttemptAt as string })
    expect(again.result).toMatchObject({ status: 'published', platformPostId: s.fake.state.posts[0]!.id })
    expect(s.fake.state.posts).toHaveLength(1)
    expect(s.fake.calls('GET', /\/posts\/draft$/)).toHaveLength(1)
    // Other tags: not ours, so it is created.
    await publishDirect(
      s,
      p.id,
      { targetOptions: { state: 'draft', tags: ['other'] } },
      {
        headAttemptAt: first.saved.headAttemptAt as string,
      },
    )
    expect(s.fake.state.posts).toHaveLength(2)
  })
})

describe('BLOG_NET tokens, metrics and delete', () => {
  it('renews a token that is due, saving the rotated refresh token, then publishes', async () => {
    const { t, fake, account } = await setupBlog({ credentials: { ...CREDS, expiresAt: '2026-11-21T10:03:00.000Z' } })
    const p = await blogPost(t, account.id, { caption: 'Fresh token' })
    await runDue(t, t.publishQueue)
    expect((await getPost(t, p.id)).status).toBe('PUBLISHED')
    const form = fake.calls('POST', '/v2/oauth2/token')[0]!.form()
    expect([form.get('grant_type'), form.get('client_id'), form.get('client_secret')]).toEqual([
      'refresh_token',
      'tumblr-key',
      'tumblr-secret',
    ])
    expect((await storedCredentials(t, account.id)).credentials).toEqual({
      ...CREDS,
      accessToken: 'tb_access_2',
      refreshToken: 'tb_refresh_2',
      expiresAt: '2026-11-21T10:42:00.000Z',
    })
  })

  it('renews once when a token not yet due is refused; a refused refresh token marks the account EXPIRED', async () => {
    const ok = await setupBlog()
    ok.fake.expireAccessToken()
    const p = await blogPost(ok.t, ok.account.id, { caption: 'Revived' })
    await runDue(ok.t, ok.t.publishQueue)
    expect((await getPost(ok.t, p.id)).status).toBe('PUBLISHED')
    expect(ok.fake.state.refreshCount).toBe(1)

    const dead = await setupBlog()
    dead.fake.expireAccessToken()
    dead.fake.state.refreshToken = 'tb_refresh_revoked'
    const q = await blogPost(dead.t, dead.account.id, { caption: 'Stuck' })
    await runDue(dead.t, dead.t.publishQueue)
    expect((await getPost(dead.t, q.id)).targets[0]).toMatchObject({
      status: 'FAILED',
      error: { code: 'auth_expired', message: expect.stringMatching(/refresh token/) },
    })
    expect((await storedCredentials(dead.t, dead.account.id)).row.status).toBe('EXPIRED')
  })

  it("reads the blog's followers, likes and reblogs (as shares) from notes, and deletes a post", async () => {
    const { t, fake, account, adapter } = await setupBlog()
    const p = await blogPost(t, account.id, { caption: 'Counted' })
    await runDue(t, t.publishQueue)
    const id = (await getPost(t, p.id)).targets[0].platformPostId
    fake.state.posts[0]!.notes = { likes: 12, reblogs: 5, replies: 2 }
    const base = { connection: 'DIRECT_LOGIN', credentials: CREDS, fetch, baseUrl: fake.url, now: new Date(START) }
    const insights = await adapter.fetchInsights!({
      ...base,
      accountId: account.id,
      posts: [{ targetId: 'tp', platformPostId: id, publishedAt: new Date(START) }],
    })
    expect(insights).toEqual({
      followers: 1200,
      posts: [{ targetId: 'tp', likes: 12, comments: null, shares: 5, views: null, saves: null }],
    })
    expect(fake.calls('GET', /\/notes$/)[0]!.query.get('mode')).toBe('conversation')
    await adapter.deletePost!({ ...base, platformPostId: id })
    expect(fake.state.posts).toHaveLength(0)
    expect(
      fake
        .calls('POST', /\/post\/delete$/)[0]!
        .form()
        .get('id'),
    ).toBe(id)
    await expect(adapter.deletePost!({ ...base, platformPostId: id })).resolves.toBeUndefined()
  })
})
