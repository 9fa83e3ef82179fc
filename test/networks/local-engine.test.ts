/**
 * The local business network under the engine's guarantees, through its loopback fake: Google's
 * error statuses classified (a quota refusal waits, a 5xx is retried), a post created exactly once
 * when an answer is lost (the retry finds it by listing the location's posts), a publish the engine
 * lost track of settled, the network's processing followed to LIVE or REJECTED, token renewal,
 * and delete.
 */
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { targets } from '../../src/db/schema'
import { claimTarget } from '../../src/services/publishing/claim'
import { sweepTargets } from '../../src/services/publishing/sweep'
import { buildTargetContent } from '../../src/services/publishing/target-content'
import { runDue } from '../support/engine'
import { CREDS, START, getPost, localPost, photo, setupLocal, storedCredentials, targetOf } from './local-support'

const POSTS_PATH = '/v4/accounts/101/locations/9001/localPosts'
const POSTS = /^POST \/v4\/accounts\/101\/locations\/9001\/localPosts$/
const later = (sec: number) => new Date(new Date(START).getTime() + sec * 1000).getTime()

describe('LOCAL_NET under the engine', () => {
  it('waits out a quota refusal (its Retry-After, else a minute), retries a 5xx, and publishes once', async () => {
    const { t, fake, account, advance } = await setupLocal()
    fake.failNextError(429, 'RESOURCE_EXHAUSTED', 'Quota exceeded for quota metric.', POSTS, { 'retry-after': '90' })
    const p = await localPost(t, account.id, { caption: 'Busy day' })
    await runDue(t, t.publishQueue)
    const row = await targetOf(t, p.id)
    expect(row.error).toMatchObject({
      code: 'rate_limited',
      message: 'LOCAL_NET: Quota exceeded for quota metric. (the Business Profile quota is used up for now)',
    })
    expect(row.dueAt!.getTime()).toBe(later(90))
    fake.failNextError(429, 'RESOURCE_EXHAUSTED', 'Quota exceeded.', POSTS)
    advance(90)
    await runDue(t, t.publishQueue)
    expect((await targetOf(t, p.id)).dueAt!.getTime()).toBe(later(150))
    fake.failNextError(503, 'UNAVAILABLE', 'The service is currently unavailable.', POSTS)
    advance(60)
    await runDue(t, t.publishQueue)
    expect((await getPost(t, p.id)).targets[0]).toMatchObject({ status: 'PENDING', error: { code: 'transient' } })
    advance(600)
    await runDue(t, t.publishQueue)
    expect((await getPost(t, p.id)).targets[0].status).toBe('PUBLISHED')
    expect(fake.state.posts.size).toBe(1)
  })

  it('creates the post once when the answer to the create call is lost: the retry finds it on the location', async () => {
    const { t, fake, account, advance } = await setupLocal()
    // Other posts of the location, one with our text made before this attempt: never taken for ours.
    fake.state.clock = () => new Date('2026-11-21T09:00:00Z')
    fake.state.posts.set('accounts/101/locations/9001/localPosts/1', {
      name: 'accounts/101/locations/9001/localPosts/1',
      body: { summary: 'Lost answer', topicType: 'STANDARD' },
      createTime: '2026-11-21T09:00:00.000Z',
      state: 'LIVE',
      readsLeft: 0,
      photo: null,
    })
    fake.state.clock = () => new Date(START)
    fake.fault('POST', POSTS_PATH, { kind: 'reset' }, { after: true })
    const p = await localPost(t, account.id, { caption: 'Lost answer' })
    await runDue(t, t.publishQueue)
    expect((await getPost(t, p.id)).targets[0]).toMatchObject({ status: 'PENDING', error: { code: 'transient' } })
    expect(fake.state.posts.size).toBe(2)
    advance(600)
    await runDue(t, t.publishQueue)
    const target = (await getPost(t, p.id)).targets[0]
    expect(target).toMatchObject({ status: 'PUBLISHED', platformPostId: `${POSTS_PATH.slice(4)}/701` })
    expect(fake.calls('POST', POSTS_PATH)).toHaveLength(1)
    expect(fake.calls('GET', POSTS_PATH)[0]!.query.get('pageSize')).toBe('100')
    expect(fake.state.posts.size).toBe(2)
  })

  it('settles a publish it lost track of: the post found on the location, or absent and created once', async () => {
    const { t, fake, account, adapter, clock } = await setupLocal()
    const p = await localPost(t, account.id, { caption: 'Made, answer lost' })
    const [d] = t.publishQueue.takeDue(new Date(8.64e15))
    const claimed = (await claimTarget(t.deps.db, d!.targetId, d!.version, clock.now(), 60))!
    const content = await buildTargetContent(t.deps.db, claimed.post, account.id, 'LOCAL_NET')
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
      // The process dies after the attempt time is saved: the post's name never reaches the database.
      saveProgress: async (next) => {
        if (next.headId) return
        Object.assign(saved, next)
        await t.deps.db
          .update(targets)
          .set({ progress: { ...saved } })
          .where(eq(targets.id, d!.targetId))
      },
    })
    const q = await localPost(t, account.id, { caption: 'Never sent' })
    const [e] = t.publishQueue.takeDue(new Date(8.64e15))
    await claimTarget(t.deps.db, e!.targetId, e!.version, clock.now(), 60)
    clock.set('2026-11-21T10:05:00Z')
    await sweepTargets(t.deps, { workspaceId: t.workspaceId })
    expect((await getPost(t, p.id)).targets[0]).toMatchObject({
      status: 'PUBLISHED',
      platformPostId: 'accounts/101/locations/9001/localPosts/701',
    })
    await runDue(t, t.publishQueue)
    expect((await getPost(t, q.id)).targets[0].status).toBe('PUBLISHED')
    expect([...fake.state.posts.values()].map((x) => x.body.summary).sort()).toEqual([
      'Made, answer lost',
      'Never sent',
    ])
  })

  it('follows a post the network is processing until it is live, and fails one its content policy rejects', async () => {
    const { t, fake, account, advance } = await setupLocal()
    fake.state.processingPolls = 2
    const p = await localPost(t, account.id, { caption: 'Slow one', mediaIds: [(await photo(t)).id] })
    await runDue(t, t.publishQueue)
    expect((await getPost(t, p.id)).targets[0].status).toBe('PENDING')
    for (let i = 0; i < 3; i++) {
      advance(60)
      await runDue(t, t.publishQueue)
    }
    expect((await getPost(t, p.id)).targets[0]).toMatchObject({
      status: 'PUBLISHED',
      permalink: expect.stringMatching(/^https:\/\/local\.google\.com\//),
    })

    fake.state.rejectProcessing = true
    const q = await localPost(t, account.id, { caption: 'Call 555-0100 now' })
    await runDue(t, t.publishQueue)
    for (let i = 0; i < 3; i++) {
      advance(60)
      await runDue(t, t.publishQueue)
    }
    expect((await getPost(t, q.id)).targets[0]).toMatchObject({
      status: 'FAILED',
      error: { code: 'rejected', message: expect.stringMatching(/rejected the post under its content policy/) },
    })
    expect(fake.calls('POST', POSTS_PATH)).toHaveLength(2)
  })

  it('renews a token that is due, and once when the network refuses one that was not', async () => {
    const { t, fake, account } = await setupLocal({ credentials: { ...CREDS, expiresAt: '2026-11-21T10:02:00.000Z' } })
    const p = await localPost(t, account.id, { caption: 'Fresh token' })
    await runDue(t, t.publishQueue)
    expect((await getPost(t, p.id)).targets[0].status).toBe('PUBLISHED')
    const renewal = fake.calls('POST', '/token')[0]!.form()
    expect([renewal.get('grant_type'), renewal.get('client_id'), renewal.get('refresh_token')]).toEqual([
      'refresh_token',
      'gbp_client',
      'gbp_refresh_1',
    ])
    expect((await storedCredentials(t, account.id)).credentials).toEqual({
      ...CREDS,
      accessToken: 'gbp_access_2',
      expiresAt: '2026-11-21T10:59:59.000Z',
    })
    fake.expireAccessToken()
    const q = await localPost(t, account.id, { caption: 'Refused token' })
    await runDue(t, t.publishQueue)
    expect((await getPost(t, q.id)).targets[0].status).toBe('PUBLISHED')
    expect(fake.calls('POST', '/token')).toHaveLength(2)
  })

  it('asks for a reconnect when the location is no longer the sign-in’s (PERMISSION_DENIED) and no renewal helps', async () => {
    const { t, fake, account } = await setupLocal({ withClient: false })
    fake.state.locations[0]!.accountIds = ['202']
    const p = await localPost(t, account.id, { caption: 'Not mine any more' })
    await runDue(t, t.publishQueue)
    expect((await getPost(t, p.id)).targets[0]).toMatchObject({ status: 'FAILED', error: { code: 'auth_expired' } })
    expect((await storedCredentials(t, account.id)).row.status).toBe('EXPIRED')
  })

  it('deletes a post from the location; one already gone counts as deleted', async () => {
    const { t, fake, account, adapter } = await setupLocal()
    const p = await localPost(t, account.id, { caption: 'Short lived' })
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
    fake.failNextError(503, 'UNAVAILABLE', 'Try again.')
    await expect(
      adapter.deletePost!({ ...input, platformPostId: 'accounts/101/locations/9001/localPosts/5' }),
    ).rejects.toMatchObject({ kind: 'transient' })
    await expect(adapter.deletePost!({ ...input, platformPostId: '../../accounts' })).rejects.toMatchObject({
      kind: 'rejected',
    })
  })
})
