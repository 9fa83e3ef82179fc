/**
 * The "call started" marker: a batch claim's network call is marked just before it starts, so after
 * a crash (or an expired lease) a claim whose call never started goes back to PENDING and is
 * published as usual, and only one whose call started is asked about (or ends `unconfirmed`).
 */
import { eq } from 'drizzle-orm'
import { describe, expect, it, vi } from 'vitest'
import { markCallsStarted } from '../../../src/db/queries/target-claims'
import { targets } from '../../../src/db/schema'
import { createRecordingPublishQueue } from '../../../src/infra/publish-queue/recording'
import { claimTargetBatch } from '../../../src/services/publishing/claim'
import { resolveOrphanedClaims } from '../../../src/services/publishing/orphaned-claims'
import { publishTargets } from '../../../src/services/publishing/publish-batch'
import { sweepTargets } from '../../../src/services/publishing/sweep'
import { fakeNetwork, runDue } from '../../support/engine'
import { account, fixedClock } from '../../support/fixtures'
import { createTestApp, type TestApp } from '../../support/test-app'

const THIS_BOOT = 'instAAAAAAAAAAAA/boot0002'
const EARLIER_BOOT = 'instAAAAAAAAAAAA/boot0001'
const START = '2026-11-21T10:00:00Z'

async function setup(options: { withCheckStatus?: boolean; hold?: Promise<void> } = {}) {
  const clock = fixedClock(START)
  const network = fakeNetwork(options)
  const queue = createRecordingPublishQueue()
  const t = await createTestApp({
    clock,
    networkRegistry: network.registry,
    publishQueue: queue,
    publishing: { backoffBaseSec: 10, maxAttempts: 3, leaseSec: 60, sweepGraceSec: 30, random: () => 0.5 },
    parts: (parts) => ({ ...parts, settings: { ...parts.settings, leaseHolder: THIS_BOOT } }),
  })
  const a = await account(t, 'MICROBLOG_NET')
  /** Posts going out now, their deliveries taken off the queue (as a batch would take them). */
  const duePosts = async (n: number) => {
    const before = queue.deliveries.length
    for (let i = 0; i < n; i++) {
      const res = await t.call('POST', '/v1/posts', {
        body: { type: 'IMAGE', mediaIds: [], caption: `post ${i}`, accountIds: [a.id], action: 'now' },
      })
      expect(res.status).toBe(200)
    }
    const deliveries = queue.deliveries.slice(before).map((d) => ({ targetId: d.targetId, version: d.version }))
    queue.takeDue(new Date(8.64e15))
    return deliveries
  }
  const row = async (targetId: string) => (await t.deps.db.select().from(targets).where(eq(targets.id, targetId)))[0]!
  return { t, clock, network, queue, duePosts, row }
}

/** Writes one target's call-started marker as the batch path does; whether its claim was still ours. */
const marked = async (t: TestApp, target: { id: string; leaseUntil: Date | null }, at: Date) =>
  (await markCallsStarted(t.deps.db, [target], at)).has(target.id)

describe('the call-started marker', () => {
  it('after a crash, sends a batch claim whose call never started back to PENDING, published exactly once', async () => {
    // A network that cannot say what became of a publish: a claim asked about would end unconfirmed.
    const { t, clock, network, queue, duePosts, row } = await setup({ withCheckStatus: false })
    const [started, notStarted] = await duePosts(2)
    const batch = await claimTargetBatch(t.deps.db, [started!, notStarted!], clock.now(), 300, EARLIER_BOOT)
    expect(batch.claimed.every((c) => c !== null)).toBe(true)
    // The earlier boot started one call and died before the other's.
    expect(await marked(t, batch.claimed[0]!.target, clock.now())).toBe(true)
    expect((await row(notStarted!.targetId)).callStartedAt).toBeNull()

    const report = await resolveOrphanedClaims(t.deps, { everyHolder: false, workspaceId: t.workspaceId })
    expect(report).toEqual({ released: 1, confirmed: 0, unconfirmed: 1 })
    expect(await row(started!.targetId)).toMatchObject({ status: 'FAILED', error: { code: 'unconfirmed' } })
    const released = await row(notStarted!.targetId)
    // Back as it was before the claim: its attempt was never made.
    expect(released).toMatchObject({ status: 'PENDING', attempts: 0, leaseUntil: null, leaseHolder: null })
    expect(network.calls()).toBe(0)

    expect(queue.deliveries.map((d) => d.targetId)).toEqual([notStarted!.targetId])
    expect(await runDue(t, queue)).toEqual(['published'])
    expect(await row(notStarted!.targetId)).toMatchObject({ status: 'PUBLISHED', attempts: 1 })
    expect(network.calls()).toBe(1)
    expect([...network.posts.values()].filter((p) => p.key === notStarted!.targetId)).toHaveLength(1)
    expect([...network.posts.values()].filter((p) => p.key === started!.targetId)).toHaveLength(0)
  })

  it('after a crash, a started call the network confirms it never made counts no attempt: published once, attempts 1', async () => {
    const { t, clock, network, queue, duePosts, row } = await setup()
    const [d] = await duePosts(1)
    const batch = await claimTargetBatch(t.deps.db, [d!], clock.now(), 300, EARLIER_BOOT)
    // The earlier boot marked the call and died before anything reached the network.
    expect(await marked(t, batch.claimed[0]!.target, clock.now())).toBe(true)
    expect(await resolveOrphanedClaims(t.deps, { everyHolder: false, workspaceId: t.workspaceId })).toEqual({
      released: 0,
      confirmed: 1,
      unconfirmed: 0,
    })
    expect(await row(d!.targetId)).toMatchObject({ status: 'PENDING', attempts: 0 })
    expect(await runDue(t, queue)).toEqual(['published'])
    expect(network.calls()).toBe(1)
    const post = await (await t.call('GET', `/v1/posts/${(await row(d!.targetId)).postId}`)).json()
    expect(post.targets[0]).toMatchObject({ status: 'PUBLISHED', attempts: 1, error: null })
  })

  it('when a claim’s lease runs out before its call started, the sweep releases it instead of asking', async () => {
    const { t, clock, network, queue, duePosts, row } = await setup({ withCheckStatus: false })
    const [d] = await duePosts(1)
    const batch = await claimTargetBatch(t.deps.db, [d!], clock.now(), 60, EARLIER_BOOT)
    const claim = batch.claimed[0]!
    clock.set('2026-11-21T10:02:00Z')
    expect(await sweepTargets(t.deps, { workspaceId: t.workspaceId })).toMatchObject({
      released: 1,
      confirmed: 0,
      unconfirmed: 0,
    })
    expect(await row(d!.targetId)).toMatchObject({ status: 'PENDING', attempts: 0 })
    // The old holder, still alive but late, finds its claim gone and must not call the network.
    expect(await marked(t, claim.target, clock.now())).toBe(false)
    expect(await runDue(t, queue)).toEqual(['published'])
    expect(network.calls()).toBe(1)
    expect((await row(d!.targetId)).status).toBe('PUBLISHED')
  })

  it('a claim marked before the sweep took it is asked about, never released', async () => {
    const { t, clock, network, duePosts, row } = await setup()
    const [d] = await duePosts(1)
    const batch = await claimTargetBatch(t.deps.db, [d!], clock.now(), 60, EARLIER_BOOT)
    expect(await marked(t, batch.claimed[0]!.target, clock.now())).toBe(true)
    // The call went out before the holder died.
    network.posts.set(d!.targetId, { id: 'fake_42', key: d!.targetId, text: 'post 0', replyTo: null })
    clock.set('2026-11-21T10:02:00Z')
    expect(await sweepTargets(t.deps, { workspaceId: t.workspaceId })).toMatchObject({
      released: 0,
      confirmed: 1,
      unconfirmed: 0,
    })
    expect(await row(d!.targetId)).toMatchObject({ status: 'PUBLISHED', platformPostId: 'fake_42' })
    expect(network.calls()).toBe(0)
  })

  it('the batch path writes the marker before its network call, and a re-claim clears it', async () => {
    let answer: () => void = () => {}
    const { t, clock, network, duePosts, row } = await setup({ hold: new Promise<void>((r) => (answer = r)) })
    const [d] = await duePosts(1)
    const [running] = publishTargets(t.deps, [d!])
    await vi.waitFor(() => expect(network.calls()).toBe(1))
    // The call is in flight (held until answered): its marker is committed.
    expect((await row(d!.targetId)).callStartedAt?.getTime()).toBe(clock.now().getTime())
    answer()
    expect(await running).toBe('published')

    // A retry claimed in a batch starts without a marker until its own call starts.
    const [e] = await duePosts(1)
    network.failNext({ status: 'failed', kind: 'transient', message: 'try later' })
    expect(await Promise.all(publishTargets(t.deps, [e!]))).toEqual(['retrying'])
    const retry = await row(e!.targetId)
    expect(retry.status).toBe('PENDING')
    clock.set(new Date(retry.dueAt!.getTime() + 1000).toISOString())
    const again = await claimTargetBatch(t.deps.db, [e!], clock.now(), 60, THIS_BOOT)
    expect(again.claimed[0]?.target.callStartedAt).toBeNull()
  })
})
