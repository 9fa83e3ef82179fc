/**
 * Deliveries a live server gave up when its database went away (`stranded.ts`): noted by target
 * when their run fails with the database unavailable (and only then), forgotten when a delivery of
 * the target runs again, and resolved once the database answers as a restart resolves its earlier
 * boot's claims: this boot's claims among them released or asked about, those left PENDING queued
 * again, any other claim of this boot (a run still in flight) left alone.
 */
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { targets } from '../../../src/db/schema'
import { createRecordingPublishQueue } from '../../../src/infra/publish-queue/recording'
import { claimTarget } from '../../../src/services/publishing/claim'
import { resolveStrandedDeliveries, strandedDeliveries, watchedRuns } from '../../../src/services/publishing/stranded'
import { fakeNetwork, runDue } from '../../support/engine'
import { account, fixedClock } from '../../support/fixtures'
import { createTestApp } from '../../support/test-app'

const THIS_BOOT = 'instSSSSSSSSSSSS/boot0001'
const gone = () => Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })

describe('deliveries stranded by the database going away', () => {
  it('are noted only for a database unavailable, and forgotten when the target runs again', async () => {
    const stranded = strandedDeliveries()
    let fail: unknown = gone()
    const { run, runBatch } = watchedRuns(
      stranded,
      async () => {
        throw fail
      },
      (ds) => ds.map(async () => Promise.reject(fail)),
    )
    await expect(run({ targetId: 'tgt_a' })).rejects.toThrow()
    await Promise.allSettled(runBatch([{ targetId: 'tgt_b' }, { targetId: 'tgt_c' }]))
    fail = new Error('a bug')
    await expect(run({ targetId: 'tgt_d' })).rejects.toThrow('a bug')
    expect(stranded.size).toBe(3)
    // tgt_a runs again (and fails otherwise): its earlier failure is this run's business now.
    await expect(run({ targetId: 'tgt_a' })).rejects.toThrow('a bug')
    expect(stranded.take().sort()).toEqual(['tgt_b', 'tgt_c'])
    expect(stranded.size).toBe(0)
  })

  it("once the database answers, resolves this boot's stranded claims as a restart would, and nothing else", async () => {
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
    const post = async (text: string, claim: boolean, callStarted = false) => {
      const before = queue.deliveries.length
      await t.call('POST', '/v1/posts', {
        body: { type: 'IMAGE', mediaIds: [], caption: text, accountIds: [a.id], action: 'now' },
      })
      const d = queue.deliveries.slice(before)[0]!
      queue.takeDue(new Date(8.64e15))
      if (claim) {
        expect(await claimTarget(t.deps.db, d.targetId, d.version, clock.now(), 300, THIS_BOOT)).not.toBeNull()
        await t.deps.db
          .update(targets)
          .set({ callStartedAt: callStarted ? clock.now() : null })
          .where(eq(targets.id, d.targetId))
      }
      return d.targetId
    }
    const status = async (id: string) => (await t.deps.db.select().from(targets).where(eq(targets.id, id)))[0]!.status
    // Claimed, the database went away before the call: back to PENDING and published.
    const unstarted = await post('claimed, never called', true)
    // Called and published, the result never written: the network is asked, and says so.
    const sent = await post('sent, never recorded', true, true)
    network.posts.set(sent, { id: 'fake_1', key: sent, text: 'x', replyTo: null })
    // Its claim never committed: still PENDING, dropped from the queue.
    const unclaimed = await post('never claimed', false)
    // This boot's claim of a run still in flight: not stranded, left alone.
    const inFlight = await post('in flight here', true, true)

    const stranded = strandedDeliveries()
    for (const id of [unstarted, sent, unclaimed]) stranded.failed(id, gone())
    const report = await resolveStrandedDeliveries(t.deps, stranded)
    expect(report).toEqual({ released: 1, confirmed: 1, unconfirmed: 0, redispatched: 2 })
    expect(stranded.size).toBe(0)
    expect(await status(sent)).toBe('PUBLISHED')
    expect(await status(inFlight)).toBe('PUBLISHING')
    expect(queue.deliveries.map((d) => d.targetId)).toEqual(expect.arrayContaining([unstarted, unclaimed]))
    await runDue(t, queue)
    expect(await status(unstarted)).toBe('PUBLISHED')
    expect(await status(unclaimed)).toBe('PUBLISHED')
    // Nothing published twice: two calls for the two never sent; the sent one only asked about.
    expect([...network.posts.values()].filter((p) => p.key === sent)).toHaveLength(1)
    expect(network.calls()).toBe(2)
  })
})
