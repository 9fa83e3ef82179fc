import { eq, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { recordBeat, takeDeadInstances } from '../../../src/db/queries/instances'
import { markTargetsDispatched } from '../../../src/db/queries/target-deliveries'
import { serverInstances, targets } from '../../../src/db/schema'
import { createRecordingPublishQueue } from '../../../src/infra/publish-queue/recording'
import { randomBase62 } from '../../../src/lib/ids'
import { claimTarget } from '../../../src/services/publishing/claim'
import { resolveDeadInstances } from '../../../src/services/publishing/instances'
import { requeuePendingTargets } from '../../../src/services/publishing/sweep'
import { fakeNetwork } from '../../support/engine'
import { account, fixedClock } from '../../support/fixtures'
import { createTestApp } from '../../support/test-app'

const LIVENESS = { beatSec: 2, deadAfterSec: 10 }
/** A boot of a fresh instance (the database may be shared with other test files). */
const boot = () => `${randomBase62(16)}/${randomBase62(8)}`

async function setup() {
  const me = boot()
  const clock = fixedClock('2026-11-21T10:00:00Z')
  const network = fakeNetwork()
  const queue = createRecordingPublishQueue()
  const t = await createTestApp({
    clock,
    networkRegistry: network.registry,
    publishQueue: queue,
    parts: (parts) => ({ ...parts, settings: { ...parts.settings, leaseHolder: me } }),
  })
  const a = await account(t, 'MICROBLOG_NET')
  /** A post with one target; `claimedBy`: its claim (call started) made by that boot. */
  const post = async (text: string, claimedBy?: string) => {
    const before = queue.deliveries.length
    const p = await (
      await t.call('POST', '/v1/posts', {
        body: { type: 'IMAGE', mediaIds: [], caption: text, accountIds: [a.id], action: 'now' },
      })
    ).json()
    const d = queue.deliveries.slice(before)[0]!
    queue.takeDue(new Date(8.64e15))
    if (claimedBy)
      expect(await claimTarget(t.deps.db, d.targetId, d.version, clock.now(), 300, claimedBy)).not.toBeNull()
    return { postId: p.id as string, targetId: d.targetId }
  }
  const target = async (id: string) => (await t.deps.db.select().from(targets).where(eq(targets.id, id)))[0]!
  /** A boot's heartbeat row, last seen `agoSec` before the database's now. */
  const beatAgo = async (holder: string, agoSec: number) => {
    await recordBeat(t.deps.db, holder)
    await t.deps.db
      .update(serverInstances)
      .set({ lastSeenAt: sql`now() - make_interval(secs => ${agoSec})` })
      .where(eq(serverInstances.holder, holder))
  }
  const rowOf = async (holder: string) =>
    (await t.deps.db.select().from(serverInstances).where(eq(serverInstances.holder, holder)))[0]
  return { t, me, network, queue, post, target, beatAgo, rowOf }
}

describe('servers sharing one database', () => {
  it('resolves the claims and queued deliveries of a boot that stopped beating, as its restart would', async () => {
    const { t, me, network, queue, post, target, beatAgo, rowOf } = await setup()
    const dead = boot()
    const live = boot()
    await beatAgo(dead, 30)
    await beatAgo(live, 1)
    // The dead boot published one before it died (not recorded), and held one in its queue.
    const published = await post('went out before the kill', dead)
    network.posts.set(published.targetId, { id: 'fake_1', key: published.targetId, text: 'x', replyTo: null })
    const neverSent = await post('claimed, never sent', dead)
    const queued = await post('in the dead boot’s queue')
    await markTargetsDispatched(t.deps.db, [queued.targetId], { at: t.deps.clock.now(), by: dead })
    const elsewhere = await post('in flight on a live server', live)

    const report = await resolveDeadInstances(t.deps, LIVENESS, new Set())
    expect(report.dead).toBeGreaterThanOrEqual(1)
    expect((await target(published.targetId)).status).toBe('PUBLISHED')
    // Asked and absent: back to PENDING and to this server's queue, never published blindly.
    expect((await target(neverSent.targetId)).status).toBe('PENDING')
    expect(queue.deliveries.map((d) => d.targetId)).toEqual(
      expect.arrayContaining([neverSent.targetId, queued.targetId]),
    )
    expect((await target(queued.targetId)).dispatchedBy).toBe(me)
    expect(network.calls()).toBe(0)
    // The live server's claim and row are left alone; the dead boot's row is gone once resolved.
    expect((await target(elsewhere.targetId)).status).toBe('PUBLISHING')
    expect(await rowOf(dead)).toBeUndefined()
    expect(await rowOf(live)).toBeDefined()
  })

  it('lets one server alone take a dead boot, and leaves a boot without a heartbeat row to its lease', async () => {
    const { t, post, target, beatAgo, rowOf } = await setup()
    const dead = boot()
    await beatAgo(dead, 30)
    // Two servers look at the same moment: the boot goes to one of them.
    const taken = await Promise.all(
      [boot(), boot()].map((me) => takeDeadInstances(t.deps.db, { me, deadAfterSec: 10, limit: 100 })),
    )
    expect(taken.flat().filter((h) => h === dead)).toHaveLength(1)
    // Its row now holds off the others for another deadAfterSec (the taker beats it while resolving).
    expect(await takeDeadInstances(t.deps.db, { me: boot(), deadAfterSec: 10, limit: 100 })).not.toContain(dead)
    expect(await rowOf(dead)).toBeDefined()

    const noRow = await post('claimed by an older server', boot())
    await resolveDeadInstances(t.deps, LIVENESS, new Set())
    expect((await target(noRow.targetId)).status).toBe('PUBLISHING')
  })

  it('at start-up takes only the deliveries no live server holds', async () => {
    const { t, me, queue, post, target, beatAgo } = await setup()
    const live = boot()
    const gone = boot()
    await beatAgo(live, 1)
    await beatAgo(gone, 60)
    const [heldLive, heldGone, heldNone] = [await post('live'), await post('gone'), await post('none')]
    await markTargetsDispatched(t.deps.db, [heldLive.targetId], { at: t.deps.clock.now(), by: live })
    await markTargetsDispatched(t.deps.db, [heldGone.targetId], { at: t.deps.clock.now(), by: gone })
    await markTargetsDispatched(t.deps.db, [heldNone.targetId], { at: t.deps.clock.now(), by: null })
    await requeuePendingTargets(t.deps, LIVENESS)
    const queuedIds = queue.deliveries.map((d) => d.targetId)
    expect(queuedIds).toEqual(expect.arrayContaining([heldGone.targetId, heldNone.targetId]))
    expect((await target(heldGone.targetId)).dispatchedBy).toBe(me)
    expect((await target(heldLive.targetId)).dispatchedBy).toBe(live)
    // The live server's delivery stays in its queue alone.
    expect(queuedIds).not.toContain(heldLive.targetId)
  })
})
