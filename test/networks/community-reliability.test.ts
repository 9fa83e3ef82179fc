/**
 * The community network's guarantees through the engine against its loopback fake: the server's
 * rate limit (400 `rate_limit_error`) and a proxy's 429 waited out, 5xx retried, never a second
 * post for a create whose answer was lost (the account's newest posts are read back first), an
 * unconfirmed call settled by the sweep either way, a refused session expiring the account, delete
 * and counts.
 */
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { accounts, targets } from '../../src/db/schema'
import type { PublishProgress } from '../../src/networks/adapter'
import { claimTarget } from '../../src/services/publishing/claim'
import { sweepTargets } from '../../src/services/publishing/sweep'
import { runDue } from '../support/engine'
import { getPost, picture, post, setup } from './community-support'

describe('COMMUNITY_NET reliability', () => {
  it("waits out the server's rate limit and a proxy's 429, retries a 5xx, and makes one post", async () => {
    const { t, fake, acct, later, clock } = await setup()
    fake.state.postLimit = 0
    const p = await post(t, acct.id, { title: 'Rate limited', caption: 'x' })
    await runDue(t, t.publishQueue)
    expect((await getPost(t, p.id)).targets[0]).toMatchObject({
      status: 'PENDING',
      error: { code: 'rate_limited', message: expect.stringContaining('rate_limit_error') },
    })
    fake.state.postLimit = 6
    fake.server.fault('POST', '/api/v3/post', { kind: 'rate-limit', retryAfterSec: 120 })
    later(60)
    await runDue(t, t.publishQueue)
    const [row] = await t.deps.db.select().from(targets).where(eq(targets.postId, p.id))
    expect(row!.dueAt!.getTime()).toBeGreaterThanOrEqual(clock.now().getTime() + 120_000)
    fake.server.fault('POST', '/api/v3/post', { kind: 'status', status: 503 })
    later(180)
    await runDue(t, t.publishQueue)
    expect((await getPost(t, p.id)).targets[0]).toMatchObject({ status: 'PENDING', error: { code: 'transient' } })
    later(600)
    await runDue(t, t.publishQueue)
    expect((await getPost(t, p.id)).status).toBe('PUBLISHED')
    expect(fake.state.posts).toHaveLength(1)
  })

  it('never makes a second post when the answer to a create is lost, nor uploads the image twice', async () => {
    const { t, fake, acct, later } = await setup()
    const img = await picture(t)
    fake.server.fault('POST', '/api/v3/post', { kind: 'reset' }, { after: true })
    const p = await post(t, acct.id, { title: 'Lost answer', caption: 'x', mediaIds: [img] })
    await runDue(t, t.publishQueue)
    expect(fake.state.posts).toHaveLength(1)
    expect((await getPost(t, p.id)).targets[0].status).toBe('PENDING')
    later(60)
    await runDue(t, t.publishQueue)
    const after = await getPost(t, p.id)
    expect(after.status).toBe('PUBLISHED')
    expect(after.targets[0].platformPostId).toBe(String(fake.state.posts[0]!.id))
    expect(fake.state.posts).toHaveLength(1)
    expect(fake.state.images.size).toBe(1)
    expect(fake.server.calls('GET', '/api/v3/user')[0]!.query.get('sort')).toBe('New')
  })

  it('settles unconfirmed publishes in the sweep: the post found, or absent and sent once', async () => {
    const { t, clock, fake, acct, creds, adapter } = await setup()
    const p1 = await post(t, acct.id, { title: 'Made before the crash', caption: 'x' })
    const p2 = await post(t, acct.id, { title: 'Never sent', caption: 'x' })
    const [d1, d2] = t.publishQueue.takeDue(new Date(8.64e15))
    const c1 = await claimTarget(t.deps.db, d1!.targetId, d1!.version, clock.now(), 60)
    const c2 = await claimTarget(t.deps.db, d2!.targetId, d2!.version, clock.now(), 60)
    // The first reaches the network, then the process dies before its answer is recorded.
    const saved: PublishProgress = {}
    await adapter.publish({
      idempotencyKey: c1!.target.id,
      accountId: acct.id,
      connection: 'APP_PASSWORD',
      credentials: creds,
      content: {
        platform: 'COMMUNITY_NET',
        type: 'IMAGE',
        text: 'x',
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
        title: 'Made before the crash',
        destinationId: '1',
        targetOptions: {},
      },
      progress: {},
      saveProgress: async (next) => {
        Object.assign(saved, next)
        const { headId: _h, headPermalink: _p, ...kept } = saved
        await t.deps.db.update(targets).set({ progress: kept }).where(eq(targets.id, c1!.target.id))
      },
      attempt: 1,
      fetch,
      baseUrl: fake.url,
      now: clock.now(),
    })
    // The second recorded its send, then died before the call left.
    await t.deps.db
      .update(targets)
      .set({ progress: { sentAt: clock.now().toISOString() } })
      .where(eq(targets.id, c2!.target.id))
    expect(fake.state.posts).toHaveLength(1)
    clock.set('2026-11-21T10:02:00Z')
    expect(await sweepTargets(t.deps, { workspaceId: t.workspaceId })).toMatchObject({ confirmed: 2, unconfirmed: 0 })
    expect((await getPost(t, p1.id)).targets[0]).toMatchObject({
      status: 'PUBLISHED',
      platformPostId: String(fake.state.posts[0]!.id),
    })
    expect((await getPost(t, p2.id)).targets[0].status).toBe('PENDING')
    await runDue(t, t.publishQueue)
    expect(fake.state.posts.map((x) => x.name)).toEqual(['Made before the crash', 'Never sent'])
  })

  it('expires the account with a reconnect message when the instance no longer accepts the session', async () => {
    const { t, fake, acct } = await setup()
    fake.endSessions()
    const p = await post(t, acct.id, { title: 'Session gone', caption: 'x' })
    await runDue(t, t.publishQueue)
    expect((await getPost(t, p.id)).targets[0]).toMatchObject({
      status: 'FAILED',
      error: { code: 'auth_expired', message: expect.stringContaining('reconnect the account') },
    })
    const [row] = await t.deps.db.select().from(accounts).where(eq(accounts.id, acct.id))
    expect(row!.status).toBe('EXPIRED')
    expect(row!.statusMessage).toContain('the instance no longer accepts this session')
    expect(fake.state.posts).toHaveLength(0)
  })

  it('reads score and comments (no followers, shares, views or saves), and deletes a post once or twice', async () => {
    const { t, fake, acct, creds, adapter, clock } = await setup()
    await post(t, acct.id, { title: 'Measured', caption: 'x' })
    await runDue(t, t.publishQueue)
    const made = fake.state.posts[0]!
    fake.vote(made.id, 12, 4)
    const base = {
      accountId: acct.id,
      connection: 'APP_PASSWORD',
      credentials: creds,
      fetch,
      baseUrl: fake.url,
      now: clock.now(),
    }
    const insights = await adapter.fetchInsights!({
      ...base,
      posts: [
        { targetId: 'tgt_1', platformPostId: String(made.id), publishedAt: clock.now() },
        { targetId: 'tgt_2', platformPostId: '4242', publishedAt: clock.now() },
      ],
    })
    expect(insights).toEqual({
      followers: null,
      posts: [
        { targetId: 'tgt_1', likes: 12, comments: 4, shares: null, views: null, saves: null },
        { targetId: 'tgt_2', likes: null, comments: null, shares: null, views: null, saves: null },
      ],
    })
    fake.vote(made.id, -3, 4)
    const negative = await adapter.fetchInsights!({
      ...base,
      posts: [{ targetId: 't', platformPostId: String(made.id), publishedAt: clock.now() }],
    })
    expect(negative.posts[0]!.likes).toBeNull()
    const del = {
      connection: 'APP_PASSWORD',
      credentials: creds,
      platformPostId: String(made.id),
      fetch,
      baseUrl: fake.url,
      now: clock.now(),
    }
    await adapter.deletePost!(del)
    expect(made.deleted).toBe(true)
    await adapter.deletePost!(del)
    await adapter.deletePost!({ ...del, platformPostId: '4242' })
    fake.endSessions()
    await expect(adapter.deletePost!(del)).rejects.toMatchObject({ kind: 'auth_expired' })
  })
})
