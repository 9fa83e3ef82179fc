import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { targets } from '../../../src/db/schema'
import { createRecordingPublishQueue } from '../../../src/infra/publish-queue/recording'
import { claimTarget } from '../../../src/services/publishing/claim'
import { resolveOrphanedClaims } from '../../../src/services/publishing/orphaned-claims'
import { sweepTargets } from '../../../src/services/publishing/sweep'
import { fakeNetwork, runDue } from '../../support/engine'
import { account, fixedClock } from '../../support/fixtures'
import { createTestApp } from '../../support/test-app'

// This boot of instance A; an earlier boot of A (crashed); another instance B, still alive.
const THIS_BOOT = 'instAAAAAAAAAAAA/boot0002'
const EARLIER_BOOT = 'instAAAAAAAAAAAA/boot0001'
const OTHER_INSTANCE = 'instBBBBBBBBBBBB/boot0001'

async function setup() {
  const clock = fixedClock('2026-11-21T10:00:00Z')
  const network = fakeNetwork()
  const queue = createRecordingPublishQueue()
  const t = await createTestApp({
    clock,
    networkRegistry: network.registry,
    publishQueue: queue,
    publishing: { backoffBaseSec: 10, maxAttempts: 3, leaseSec: 300, sweepGraceSec: 30, random: () => 0.5 },
    parts: (parts) => ({ ...parts, settings: { ...parts.settings, leaseHolder: THIS_BOOT } }),
  })
  const a = await account(t, 'MICROBLOG_NET')
  /** A post going out now, claimed by `holder` (the claim of a process that then died, or lives on). */
  const claimedPost = async (holder: string | null, text: string) => {
    const before = queue.deliveries.length
    const p = await (
      await t.call('POST', '/v1/posts', {
        body: { type: 'IMAGE', mediaIds: [], caption: text, accountIds: [a.id], action: 'now' },
      })
    ).json()
    const d = queue.deliveries.slice(before).find((x) => x)!
    queue.takeDue(new Date(8.64e15))
    expect(await claimTarget(t.deps.db, d.targetId, d.version, clock.now(), 300, holder)).not.toBeNull()
    return { postId: p.id as string, targetId: d.targetId }
  }
  const status = async (targetId: string) =>
    (await t.deps.db.select().from(targets).where(eq(targets.id, targetId)))[0]!.status
  return { t, clock, network, queue, a, claimedPost, status }
}

describe('claims orphaned by a crash (Node start-up)', () => {
  it('resolves an earlier boot’s claims at once, asking the network, and leaves live holders alone', async () => {
    const { t, network, queue, claimedPost, status } = await setup()
    // The earlier boot published one post and died before recording it; it died before the call for another.
    const published = await claimedPost(EARLIER_BOOT, 'went out before the crash')
    network.posts.set(published.targetId, { id: 'fake_99', key: published.targetId, text: 'x', replyTo: null })
    const lost = await claimedPost(EARLIER_BOOT, 'never reached the network')
    const otherInstance = await claimedPost(OTHER_INSTANCE, 'in flight elsewhere')
    const mine = await claimedPost(THIS_BOOT, 'in flight here')

    // Within the 5-minute lease the sweep must not touch any of them: that was the wait after a crash.
    expect(await sweepTargets(t.deps, { workspaceId: t.workspaceId })).toMatchObject({ confirmed: 0, unconfirmed: 0 })
    const report = await resolveOrphanedClaims(t.deps, { everyHolder: false, workspaceId: t.workspaceId })
    expect(report).toEqual({ released: 0, confirmed: 2, unconfirmed: 0 })

    expect(await status(published.targetId)).toBe('PUBLISHED')
    // Confirmed absent: published again through the queue, once.
    expect(await status(lost.targetId)).toBe('PENDING')
    await runDue(t, queue)
    expect(await status(lost.targetId)).toBe('PUBLISHED')
    expect(network.calls()).toBe(1)
    // One attempt reached the network: the claim cut short by the crash is not counted.
    const relisted = await (await t.call('GET', `/v1/posts/${lost.postId}`)).json()
    expect(relisted.targets[0]).toMatchObject({ status: 'PUBLISHED', attempts: 1 })
    expect([...network.posts.values()].filter((p) => p.key === published.targetId)).toHaveLength(1)
    // Another instance's claim and this boot's own stay as they are.
    expect(await status(otherInstance.targetId)).toBe('PUBLISHING')
    expect(await status(mine.targetId)).toBe('PUBLISHING')
    // Running it again finds nothing more (the taken-over claims are this boot's now).
    expect(await resolveOrphanedClaims(t.deps, { everyHolder: false, workspaceId: t.workspaceId })).toEqual({
      released: 0,
      confirmed: 0,
      unconfirmed: 0,
    })
  })

  it('on a database it holds alone, takes every claim not its own, even one with no holder', async () => {
    const { t, claimedPost, status, network } = await setup()
    const unnamed = await claimedPost(null, 'claimed before holders were recorded')
    const otherInstance = await claimedPost(OTHER_INSTANCE, 'a process that no longer exists')
    const mine = await claimedPost(THIS_BOOT, 'in flight here')
    const report = await resolveOrphanedClaims(t.deps, { everyHolder: true, workspaceId: t.workspaceId })
    expect(report).toEqual({ released: 0, confirmed: 2, unconfirmed: 0 })
    expect(await status(unnamed.targetId)).toBe('PENDING')
    expect(await status(otherInstance.targetId)).toBe('PENDING')
    expect(await status(mine.targetId)).toBe('PUBLISHING')
    expect(network.calls()).toBe(0)
  })

  it('ends an orphan the network cannot account for FAILED unconfirmed, never publishing it blindly', async () => {
    const clock = fixedClock('2026-11-21T10:00:00Z')
    const network = fakeNetwork({ withCheckStatus: false })
    const queue = createRecordingPublishQueue()
    const t = await createTestApp({
      clock,
      networkRegistry: network.registry,
      publishQueue: queue,
      parts: (parts) => ({ ...parts, settings: { ...parts.settings, leaseHolder: THIS_BOOT } }),
    })
    const a = await account(t, 'MICROBLOG_NET')
    const p = await (
      await t.call('POST', '/v1/posts', {
        body: { type: 'IMAGE', mediaIds: [], caption: 'hi', accountIds: [a.id], action: 'now' },
      })
    ).json()
    const [d] = queue.takeDue(new Date(8.64e15))
    await claimTarget(t.deps.db, d!.targetId, d!.version, clock.now(), 300, EARLIER_BOOT)
    expect(await resolveOrphanedClaims(t.deps, { everyHolder: false, workspaceId: t.workspaceId })).toEqual({
      released: 0,
      confirmed: 0,
      unconfirmed: 1,
    })
    const after = await (await t.call('GET', `/v1/posts/${p.id}`)).json()
    expect(after.targets[0]).toMatchObject({ status: 'FAILED', error: { code: 'unconfirmed' } })
    expect(network.calls()).toBe(0)
  })
})
