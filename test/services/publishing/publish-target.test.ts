import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { accounts, posts, targets } from '../../../src/db/schema'
import { createRecordingPublishQueue } from '../../../src/infra/publish-queue/recording'
import { claimTarget } from '../../../src/services/publishing/claim'
import { publishTarget } from '../../../src/services/publishing/publish-target'
import { sweepTargets } from '../../../src/services/publishing/sweep'
import { fakeNetwork, runDue } from '../../support/engine'
import { account, fixedClock } from '../../support/fixtures'
import { createTestApp } from '../../support/test-app'

async function setup(options: { delayMs?: number; withCheckStatus?: boolean } = {}) {
  const clock = fixedClock('2026-11-21T10:00:00Z')
  const network = fakeNetwork(options)
  const queue = createRecordingPublishQueue()
  // A delivery queue that can be down, as the managed one sometimes is.
  const outage = { down: false }
  const t = await createTestApp({
    clock,
    networkRegistry: network.registry,
    publishQueue: {
      enqueue: async (deliveries) => {
        if (outage.down) throw new Error('queue unreachable')
        await queue.enqueue(deliveries)
      },
    },
    publishing: {
      backoffBaseSec: 10,
      maxAttempts: 3,
      leaseSec: 60,
      sweepGraceSec: 30,
      random: () => 0.5,
    },
  })
  return { t, clock, network, queue, outage }
}

const post = (t: Awaited<ReturnType<typeof setup>>['t'], body: Record<string, unknown>) =>
  t
    .call('POST', '/v1/posts', { body: { type: 'IMAGE', mediaIds: [], caption: 'Hello', ...body } })
    .then((r) => r.json())

const targetRow = async (t: Awaited<ReturnType<typeof setup>>['t'], id: string) =>
  (await t.deps.db.select().from(targets).where(eq(targets.id, id)))[0]!

describe('publishing engine', () => {
  it('makes exactly one network call for N concurrent and repeated deliveries of one target', async () => {
    const { t, network, queue } = await setup({ delayMs: 30 })
    const a = await account(t, 'MICROBLOG_NET')
    const p = await post(t, { accountIds: [a.id], action: 'now' })
    expect(queue.deliveries).toHaveLength(1)
    const [d] = queue.deliveries
    const outcomes = await Promise.all(Array.from({ length: 12 }, () => publishTarget(t.deps, d!)))
    outcomes.push(await publishTarget(t.deps, d!))
    expect(outcomes.filter((o) => o === 'published')).toHaveLength(1)
    expect(outcomes.filter((o) => o === 'skipped')).toHaveLength(12)
    expect(network.calls()).toBe(1)
    const after = await (await t.call('GET', `/v1/posts/${p.id}`)).json()
    expect(after).toMatchObject({
      status: 'PUBLISHED',
      targets: [
        {
          status: 'PUBLISHED',
          attempts: 1,
          permalink: expect.stringMatching(/^https:\/\/fake\.example\//),
          error: null,
        },
      ],
    })
    expect(after.publishedAt).not.toBeNull()
  })

  it('recovers a crash between claim and result through the sweep, without a second post', async () => {
    const { t, clock, network, queue } = await setup()
    const a = await account(t, 'MICROBLOG_NET')
    const p = await post(t, { accountIds: [a.id], action: 'now' })
    const [d] = queue.deliveries
    // The process claims the target and the network creates the post, then the process dies.
    const claimed = await claimTarget(t.deps.db, d!.targetId, d!.version, clock.now(), 60)
    expect(claimed).not.toBeNull()
    await network.adapter.publish({
      idempotencyKey: d!.targetId,
      accountId: a.id,
      connection: 'SANDBOX',
      credentials: {},
      content: {
        platform: 'MICROBLOG_NET',
        type: 'IMAGE',
        text: 'Hello',
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
      progress: {},
      saveProgress: async () => {},
      attempt: 1,
      fetch,
      baseUrl: '',
      now: clock.now(),
    })
    expect(network.posts.size).toBe(1)
    // Within the lease the sweep leaves it alone; past it, the network is asked.
    expect((await sweepTargets(t.deps, { workspaceId: t.workspaceId })).confirmed).toBe(0)
    clock.set('2026-11-21T10:01:30Z')
    expect(await sweepTargets(t.deps, { workspaceId: t.workspaceId })).toMatchObject({ confirmed: 1, unconfirmed: 0 })
    const after = await (await t.call('GET', `/v1/posts/${p.id}`)).json()
    expect(after).toMatchObject({ status: 'PUBLISHED', targets: [{ status: 'PUBLISHED', platformPostId: 'fake_1' }] })
    expect(network.posts.size).toBe(1)
    expect(network.calls()).toBe(1)
  })

  it('publishes again after a crash only when the network confirms the post is absent', async () => {
    const { t, clock, network, queue } = await setup()
    const a = await account(t, 'MICROBLOG_NET')
    await post(t, { accountIds: [a.id], action: 'now' })
    const [d] = queue.takeDue(new Date(8.64e15))
    await claimTarget(t.deps.db, d!.targetId, d!.version, clock.now(), 60)
    clock.set('2026-11-21T10:02:00Z')
    await sweepTargets(t.deps, { workspaceId: t.workspaceId })
    expect((await targetRow(t, d!.targetId)).status).toBe('PENDING')
    await runDue(t, queue)
    expect((await targetRow(t, d!.targetId)).status).toBe('PUBLISHED')
    expect(network.posts.size).toBe(1)
  })

  it('ends an unconfirmable publish FAILED with code unconfirmed instead of publishing blindly', async () => {
    const { t, clock, network, queue } = await setup({ withCheckStatus: false })
    const a = await account(t, 'MICROBLOG_NET')
    const p = await post(t, { accountIds: [a.id], action: 'now' })
    const [d] = queue.takeDue(new Date(8.64e15))
    await claimTarget(t.deps.db, d!.targetId, d!.version, clock.now(), 60)
    clock.set('2026-11-21T10:02:00Z')
    expect(await sweepTargets(t.deps, { workspaceId: t.workspaceId })).toMatchObject({ unconfirmed: 1 })
    const after = await (await t.call('GET', `/v1/posts/${p.id}`)).json()
    expect(after.status).toBe('FAILED')
    expect(after.targets[0].error).toMatchObject({
      code: 'unconfirmed',
      retryable: true,
      message: expect.stringMatching(/check the account/),
    })
    expect(network.calls()).toBe(0)
    expect(queue.deliveries).toHaveLength(0)
  })

  it('retries transient failures with backoff, honouring the wait the network asked for, then gives up', async () => {
    const { t, clock, network, queue } = await setup()
    const a = await account(t, 'MICROBLOG_NET')
    const p = await post(t, { accountIds: [a.id], action: 'now' })
    network.failNext({ status: 'failed', kind: 'rate_limited', message: 'Too many requests', retryAfterSec: 120 })
    expect(await runDue(t, queue)).toEqual(['retrying'])
    const waiting = await targetRow(t, p.targets[0].id)
    expect(waiting.status).toBe('PENDING')
    expect(waiting.dueAt!.toISOString()).toBe('2026-11-21T10:02:00.000Z')
    expect(waiting.error).toMatchObject({ code: 'rate_limited', retryable: true })
    expect(queue.deliveries[0]!.notBefore.toISOString()).toBe('2026-11-21T10:02:00.000Z')
    clock.set('2026-11-21T10:02:00Z')
    network.failNext({ status: 'failed', kind: 'transient', message: 'HTTP 503' })
    expect(await runDue(t, queue)).toEqual(['retrying'])
    // Second retry: base 10 s doubled = 20 s (jitter fixed at the middle).
    expect((await targetRow(t, p.targets[0].id)).dueAt!.toISOString()).toBe('2026-11-21T10:02:20.000Z')
    clock.set('2026-11-21T10:02:20Z')
    network.failNext({ status: 'failed', kind: 'transient', message: 'HTTP 503' })
    expect(await runDue(t, queue)).toEqual(['failed'])
    const after = await (await t.call('GET', `/v1/posts/${p.id}`)).json()
    expect(after).toMatchObject({
      status: 'FAILED',
      targets: [{ status: 'FAILED', attempts: 3, error: { code: 'transient', retryable: true } }],
    })
  })

  it('fails a rejected publish at once, and marks the account EXPIRED on an expired token', async () => {
    const { t, network, queue } = await setup()
    const a = await account(t, 'MICROBLOG_NET')
    const b = await account(t, 'CHAT_NET')
    network.failNext({ status: 'failed', kind: 'rejected', message: 'Duplicate content' })
    const p = await post(t, { accountIds: [a.id], action: 'now' })
    expect(await runDue(t, queue)).toEqual(['failed'])
    expect((await (await t.call('GET', `/v1/posts/${p.id}`)).json()).targets[0].error).toEqual({
      code: 'rejected',
      message: 'Duplicate content',
      retryable: false,
    })

    network.failNext({ status: 'failed', kind: 'auth_expired', message: 'Invalid or expired token' })
    const q = await post(t, { accountIds: [b.id], action: 'now' })
    await runDue(t, queue)
    const failed = await (await t.call('GET', `/v1/posts/${q.id}`)).json()
    expect(failed.targets[0].error).toMatchObject({
      code: 'auth_expired',
      message: expect.stringMatching(/reconnect the account/),
    })
    const [acc] = await t.deps.db.select().from(accounts).where(eq(accounts.id, b.id))
    expect(acc).toMatchObject({ status: 'EXPIRED', statusMessage: expect.stringMatching(/reconnect/) })
    // A new post to that account is refused until it is reconnected; the network is not called.
    const calls = network.calls()
    const refused = await t.call('POST', '/v1/posts', {
      body: { type: 'IMAGE', accountIds: [b.id], mediaIds: [], action: 'now', caption: 'again' },
    })
    expect(refused.status).toBe(422)
    expect((await refused.json()).error).toMatchObject({
      code: 'account_not_connected',
      details: [{ path: 'accountIds.0' }],
    })
    // A retry of the failed post fails again at once, without calling the network.
    expect((await t.call('POST', `/v1/posts/${q.id}/retry`)).status).toBe(200)
    await runDue(t, queue)
    expect(network.calls()).toBe(calls)
    expect((await (await t.call('GET', `/v1/posts/${q.id}`)).json()).targets[0].error.code).toBe('auth_expired')
  })

  it('fails a publish to a disconnected account without calling the network, retryable once it is reconnected', async () => {
    const { t, network, queue } = await setup()
    const a = await account(t, 'MICROBLOG_NET')
    const p = await post(t, { accountIds: [a.id], action: 'now' })
    await t.deps.db.update(accounts).set({ status: 'DISCONNECTED' }).where(eq(accounts.id, a.id))
    expect(await runDue(t, queue)).toEqual(['failed'])
    expect(network.calls()).toBe(0)
    expect((await (await t.call('GET', `/v1/posts/${p.id}`)).json()).targets[0].error).toEqual({
      code: 'rejected',
      message: 'The account is disconnected: reconnect it, then retry.',
      retryable: true,
    })
  })

  it('retries only failed targets and never touches published ones', async () => {
    const { t, network, queue } = await setup()
    const a = await account(t, 'MICROBLOG_NET')
    const b = await account(t, 'CHAT_NET')
    network.failNext({ status: 'failed', kind: 'rejected', message: 'Try later' })
    const p = await post(t, { accountIds: [a.id, b.id], action: 'now' })
    await runDue(t, queue)
    const mixed = await (await t.call('GET', `/v1/posts/${p.id}`)).json()
    expect(mixed.status).toBe('FAILED')
    expect(mixed.targets.map((x: { status: string }) => x.status).sort()).toEqual(['FAILED', 'PUBLISHED'])
    const published = mixed.targets.find((x: { status: string }) => x.status === 'PUBLISHED')
    const retry = await t.call('POST', `/v1/posts/${p.id}/retry`)
    expect((await retry.json()).status).toBe('PUBLISHING')
    expect(queue.deliveries).toHaveLength(1)
    await runDue(t, queue)
    const done = await (await t.call('GET', `/v1/posts/${p.id}`)).json()
    expect(done.status).toBe('PUBLISHED')
    expect(done.targets.find((x: { id: string }) => x.id === published.id)).toEqual(published)
    expect(network.posts.size).toBe(2)
    const again = await t.call('POST', `/v1/posts/${p.id}/retry`)
    expect(again.status).toBe(409)
    expect((await again.json()).error.code).toBe('nothing_to_retry')
  })

  it('makes earlier deliveries harmless when a post is moved, edited or deleted', async () => {
    const { t, clock, network, queue } = await setup()
    const a = await account(t, 'MICROBLOG_NET')
    const p = await post(t, { accountIds: [a.id], action: 'schedule', scheduledAt: '2026-11-21T11:00:00Z' })
    const old = queue.takeDue(new Date(8.64e15))
    await t.call('POST', `/v1/posts/${p.id}/schedule`, { body: { scheduledAt: '2026-11-21T12:00:00Z' } })
    clock.set('2026-11-21T11:00:00Z')
    expect(await publishTarget(t.deps, old[0]!)).toBe('skipped')
    // The new delivery is not due yet either.
    expect(await publishTarget(t.deps, queue.deliveries[0]!)).toBe('skipped')
    clock.set('2026-11-21T12:00:00Z')
    const moved = queue.takeDue(new Date(8.64e15))
    await t.call('DELETE', `/v1/posts/${p.id}`)
    expect(await publishTarget(t.deps, moved[0]!)).toBe('skipped')
    expect(network.calls()).toBe(0)
  })

  it('resumes a thread after the last part that went out', async () => {
    const { t, network, queue } = await setup()
    const a = await account(t, 'MICROBLOG_NET')
    network.failNext({ status: 'failed', kind: 'transient', message: 'HTTP 502' }, 2)
    const p = await post(t, { accountIds: [a.id], action: 'now', threadParts: ['two', 'three', 'four'] })
    expect(await runDue(t, queue)).toEqual(['retrying'])
    const midway = await targetRow(t, p.targets[0].id)
    expect(midway.progress).toMatchObject({ headId: 'fake_1', partIds: ['fake_2', 'fake_3'] })
    expect(midway.platformPostId).toBe('fake_1')
    await t.deps.db
      .update(targets)
      .set({ dueAt: new Date('2026-11-21T10:00:00Z') })
      .where(eq(targets.id, p.targets[0].id))
    for (const d of queue.deliveries) d.notBefore = new Date('2026-11-21T10:00:00Z')
    expect(await runDue(t, queue)).toEqual(['published'])
    const texts = [...network.posts.values()].map((x) => `${x.text}<-${x.replyTo ?? '-'}`)
    expect(texts).toEqual(['Hello<--', 'two<-fake_1', 'three<-fake_2', 'four<-fake_3'])
  })

  it('answers a create with 200 even when the queue is down, and the sweep delivers later', async () => {
    const { t, clock, network, queue, outage } = await setup()
    const a = await account(t, 'MICROBLOG_NET')
    outage.down = true
    const res = await t.call('POST', '/v1/posts', {
      body: { type: 'IMAGE', accountIds: [a.id], mediaIds: [], action: 'now', caption: 'still goes out' },
    })
    expect(res.status).toBe(200)
    outage.down = false
    clock.set('2026-11-21T10:01:00Z')
    expect((await sweepTargets(t.deps, { workspaceId: t.workspaceId })).redispatched).toBe(1)
    expect(await runDue(t, queue)).toEqual(['published'])
    expect(network.calls()).toBe(1)
  })

  it('continues a recurring series once a retry publishes an occurrence that had ended unconfirmed', async () => {
    const { t, clock, queue } = await setup({ withCheckStatus: false })
    const a = await account(t, 'MICROBLOG_NET')
    const p = await post(t, { accountIds: [a.id], action: 'now', recurrence: { frequency: 'daily', interval: 1 } })
    const [d] = queue.takeDue(clock.now())
    await claimTarget(t.deps.db, d!.targetId, d!.version, clock.now(), 60)
    clock.set('2026-11-21T10:02:00Z')
    await sweepTargets(t.deps, { workspaceId: t.workspaceId })
    expect(await (await t.call('GET', '/v1/posts')).json()).toHaveLength(1)
    await t.call('POST', `/v1/posts/${p.id}/retry`)
    expect(await runDue(t, queue)).toEqual(['published'])
    const all = await (await t.call('GET', '/v1/posts?sort=-createdAt')).json()
    expect(all).toHaveLength(2)
    expect(all[1]).toMatchObject({ status: 'SCHEDULED', recurrence: { occurrence: 2, parentId: p.id } })
  })

  it('takes a scheduled post out of SCHEDULED when its first target is claimed', async () => {
    const { t, clock, queue } = await setup()
    const a = await account(t, 'MICROBLOG_NET')
    const p = await post(t, { accountIds: [a.id], action: 'schedule', scheduledAt: '2026-11-21T10:30:00Z' })
    expect(await runDue(t, queue)).toEqual([])
    clock.set('2026-11-21T10:30:00Z')
    expect(await runDue(t, queue)).toEqual(['published'])
    const [row] = await t.deps.db.select().from(posts).where(eq(posts.id, p.id))
    expect(row!.status).toBe('PUBLISHED')
  })
})
