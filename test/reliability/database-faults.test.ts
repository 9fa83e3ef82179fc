/**
 * The database connection dropped in the middle of a publishing transaction (issue: "a database
 * connection dropped mid-transaction"), over real publishing to FEDERATED_NET's fake. On
 * PostgreSQL runs the service's backends are really terminated (`pg_terminate_backend`) while the
 * transaction waits on the post's row lock; on embedded PGlite, which has no connection to drop,
 * the transaction's client fails at a chosen statement instead (support/broken-db.ts says why).
 * Either way, what a user relies on: no half-written state (the transaction left nothing of
 * itself), no 5xx from the API meanwhile, and the target settled exactly once by the sweep, the
 * network asked rather than posted to again.
 */
import { afterAll, describe, expect, inject, it } from 'vitest'
import { publishTarget } from '../../src/services/publishing/publish-target'
import { sweepTargets } from '../../src/services/publishing/sweep'
import { breakableDb, lockPost, type BreakPlan } from './support/broken-db'
import { createLeakWatch } from './support/leaks'
import { federated, published, tally, targetRow, POLICY } from './support/fault-harness'

const watch = createLeakWatch()
const url = inject('databaseUrl')
const STATUSES = '/api/v1/statuses'
const drops: number[] = []

afterAll(() => {
  expect(watch.leaks()).toEqual([])
  const how = url ? `postgres, backends killed: ${drops.join(',')}` : 'pglite, a statement failed'
  console.log(
    `database-faults (${how}): transactions broken=${drops.length} targets=${tally.targets} ` +
      `duplicates=${tally.duplicates} api 5xx=${tally.serverErrors}`,
  )
  expect(tally.duplicates).toBe(0)
})

async function until(done: () => boolean) {
  const deadline = Date.now() + 10_000
  while (!done()) {
    if (Date.now() > deadline) throw new Error('timed out waiting')
    await new Promise((r) => setTimeout(r, 10))
  }
}

async function setup() {
  let plan: BreakPlan | null = null
  const h = await federated(
    watch,
    url
      ? undefined
      : (parts) => {
          const broken = breakableDb(parts.db)
          plan = broken.plan
          return { ...parts, db: broken.db }
        },
  )
  /**
   * Loses the connection inside the next transaction that locks the post: `begin()` before it is
   * started, `drop()` once it is on its way; the PGlite one fails at its `statement`-th statement.
   */
  const dropper = async (postId: string, statement: number) => {
    if (!url) {
      const before = plan!.broken()
      plan!.arm(statement)
      // Nothing to kill here: the armed transaction breaks by itself once the engine reaches it.
      return async () => {
        await until(() => plan!.broken() > before)
        drops.push(plan!.broken() - before)
      }
    }
    const lock = await lockPost(url, postId)
    return async () => {
      try {
        drops.push(await lock.dropWaitingConnections())
      } finally {
        await lock.release()
      }
    }
  }
  return { ...h, dropper }
}

describe(`a database connection dropped mid-transaction (${url ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('while the result is recorded: the network made the post, the sweep confirms it, one status', async () => {
    const h = await setup()
    let answer!: () => void
    h.net.fault('POST', STATUSES, { kind: 'delay', until: new Promise<void>((r) => (answer = r)) }, { after: true })
    const post = await h.publish({ caption: 'dropped while recording', accountIds: [h.account.id] })
    const [delivery] = h.t.publishQueue.takeDue(h.clock.now())
    const running = publishTarget(h.t.deps, delivery!).then(
      (outcome) => outcome,
      (err: unknown) => err,
    )
    // The status exists at the network; its answer waits until the connection is about to drop.
    await until(() => h.net.injected.length === 1)
    // Statement 1 locks the post, statement 2 writes the target.
    const drop = await h.dropper(post.id, 2)
    answer()
    await drop()
    expect(await running).toBeInstanceOf(Error)
    expect(drops.at(-1)).toBeGreaterThan(0)

    // Nothing of the transaction: still claimed, with what the adapter saved before it (the network's id).
    const row = await targetRow(h.t, post.targets[0].id)
    const made = h.fake.state.statuses[0]!.id
    expect(row).toMatchObject({ status: 'PUBLISHING', platformPostId: made, publishedAt: null, error: null })
    expect(row.leaseUntil).not.toBeNull()
    expect(row.progress?.headId).toBe(made)
    const meanwhile = await h.post(post.id)
    expect(meanwhile).toMatchObject({ status: 'PUBLISHING', targets: [{ status: 'PUBLISHING' }] })

    // The lease runs out; the sweep takes the claim over and asks the network (never posts blindly).
    expect(await h.later(POLICY.leaseSec + 1)).toEqual([])
    const report = await sweepTargets(h.t.deps, { workspaceId: h.t.workspaceId })
    expect(report).toMatchObject({ confirmed: 1, unconfirmed: 0 })
    await h.run()
    const done = await h.post(post.id)
    expect(done).toMatchObject({ status: 'PUBLISHED', targets: [{ status: 'PUBLISHED', attempts: 1 }] })
    expect(done.targets[0].platformPostId).toBe(h.fake.state.statuses[0]!.id)
    expect(h.net.calls('POST', STATUSES)).toHaveLength(1)
    expect(published(h.fake.state.statuses.length)).toBe(1)
    // Settled once: a later sweep finds nothing to do.
    await h.later(POLICY.leaseSec + 1)
    expect(await sweepTargets(h.t.deps, { workspaceId: h.t.workspaceId })).toEqual({
      redispatched: 0,
      released: 0,
      confirmed: 0,
      unconfirmed: 0,
    })
    await h.finish(post.id)
  })

  it('while the target is claimed: nothing claimed or sent; the sweep hands it over again, one status', async () => {
    const h = await setup()
    const post = await h.publish({ caption: 'dropped while claiming', accountIds: [h.account.id] })
    const before = await targetRow(h.t, post.targets[0].id)
    const [delivery] = h.t.publishQueue.takeDue(h.clock.now())
    // Statement 1 locks the post at the delivery's version, statement 2 claims the target.
    const drop = await h.dropper(post.id, 2)
    const running = publishTarget(h.t.deps, delivery!).then(
      (outcome) => outcome,
      (err: unknown) => err,
    )
    await drop()
    expect(await running).toBeInstanceOf(Error)
    expect(drops.at(-1)).toBeGreaterThan(0)
    const row = await targetRow(h.t, post.targets[0].id)
    expect(row).toMatchObject({ status: 'PENDING', attempts: before.attempts, leaseUntil: null })
    expect(h.net.calls('POST', STATUSES)).toHaveLength(0)
    expect((await h.post(post.id)).targets[0].status).toBe('PENDING')

    // The delivery is gone with the failed call; past the grace the sweep hands the target over again.
    expect(await h.later(POLICY.sweepGraceSec + 1)).toEqual([])
    const report = await sweepTargets(h.t.deps, { workspaceId: h.t.workspaceId })
    expect(report.redispatched).toBe(1)
    expect(await h.run()).toEqual(['published'])
    expect((await h.post(post.id)).status).toBe('PUBLISHED')
    expect(published(h.fake.state.statuses.length)).toBe(1)
    await h.finish(post.id)
  })
})
