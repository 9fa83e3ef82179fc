import { takeOverDeliveries, takeUndeliveredTargets } from '../../db/queries/instances'
import { findPost } from '../../db/queries/publishing-posts'
import { releaseUnstartedClaim } from '../../db/queries/target-claims'
import type { TargetRow } from '../../db/queries/targets'
import {
  failUnconfirmedTarget,
  markTargetsDispatched,
  selectAllPendingDeliveries,
  selectExpiredClaimIds,
  takeOverExpiredClaim,
} from '../../db/queries/target-deliveries'
import type { Deps } from '../../deps'
import { describeError } from '../../infra/logger'
import { dispatchPendingTargets, enqueueTaken } from './dispatch'
import { lockPostRow, type ClaimedTarget } from './claim'
import { settlePost } from './aggregate'
import { callNetwork, policyOf } from './publish-target'
import { recordResult } from './record-result'
import { newOutbox, sendOutbox } from '../webhooks/outbox'
import { recordTargetSettled } from '../webhooks/publish-events'

/** Targets looked at per sweep; the rest wait for the next minute. */
const SWEEP_BATCH = 500

export interface SweepReport {
  redispatched: number
  /** Expired claims whose call had not started: back to PENDING, published as usual. */
  released: number
  confirmed: number
  unconfirmed: number
}

/** What became of a claim taken over from a holder that is gone. */
export type TakenOverClaim = 'released' | 'confirmed' | 'unconfirmed'

/**
 * The safety net (Cron Trigger every minute; a timer on Node): (1) due targets that no delivery
 * reached get a new one; (2) targets whose claim expired in PUBLISHING: one whose network call
 * never started goes back to PENDING; one whose call started is never published blindly again:
 * the network is asked whether the post exists; if it cannot say, the target ends FAILED with
 * code `unconfirmed` and a message telling the user to check.
 */
export async function sweepTargets(deps: Deps, scope: { workspaceId?: string } = {}): Promise<SweepReport> {
  const policy = policyOf(deps)
  // One workspace only (a test sharing its database with others); the scheduled sweep takes all.
  const workspaceId = scope.workspaceId
  const now = deps.clock.now()
  const report: SweepReport = { redispatched: 0, released: 0, confirmed: 0, unconfirmed: 0 }

  const stale = new Date(now.getTime() - policy.sweepGraceSec * 1000)
  // Each target taken by one sweep alone (several servers sweep the same database).
  const undelivered = await takeUndeliveredTargets(deps.db, {
    me: deps.settings.leaseHolder ?? null,
    now,
    stale,
    workspaceId,
    limit: SWEEP_BATCH,
  })
  await enqueueTaken(deps, undelivered, now)
  report.redispatched = undelivered.length

  const expired = await selectExpiredClaimIds(deps.db, { now, workspaceId, limit: SWEEP_BATCH })
  for (const { id } of expired) {
    try {
      report[await resolveExpiredClaim(deps, id)]++
    } catch (err) {
      deps.logger.error('sweep_target_failed', { targetId: id, ...describeError(err) })
    }
  }
  return report
}

/** What became of the expired claim ('confirmed' also when another sweep had it first). */
async function resolveExpiredClaim(deps: Deps, targetId: string): Promise<TakenOverClaim> {
  const policy = policyOf(deps)
  const now = deps.clock.now()
  // Take the expired claim over with a fresh lease, so two sweeps never act on one target.
  const target = await takeOverExpiredClaim(deps.db, targetId, {
    now,
    leaseUntil: new Date(now.getTime() + policy.leaseSec * 1000),
    holder: deps.settings.leaseHolder ?? null,
  })
  if (!target) return 'confirmed'
  return resolveTakenOverClaim(deps, target)
}

/**
 * A claim whose holder is gone, now taken over by us. If its network call never started (no
 * marker), it goes back to PENDING and to the queue: 'released'. Else the network is asked whether
 * the post exists (never published blindly again): 'confirmed' when it settled the question
 * (published, absent and retried, still pending); else the target ends FAILED `unconfirmed`.
 */
export async function resolveTakenOverClaim(deps: Deps, target: TargetRow): Promise<TakenOverClaim> {
  if (target.callStartedAt === null) {
    // Fenced by our lease and the absent marker: a holder that marked its call first keeps it asked about.
    const released = await releaseUnstartedClaim(deps.db, target, deps.clock.now())
    if (released) {
      await dispatchPendingTargets(deps, target.postId, [target.id])
      return 'released'
    }
    return 'confirmed'
  }
  const post = await findPost(deps.db, target.postId)
  if (!post) return 'confirmed'
  const claimed: ClaimedTarget = { target, post }
  const progress = { ...(target.progress ?? {}) }
  // A status check that throws anything but a NetworkFailure (a bug) comes back as a transient
  // failure, logged once by callNetwork: like a network that cannot say, the target ends unconfirmed.
  const result = await callNetwork(deps, claimed, progress, true)
  if (result && (result.status === 'published' || result.status === 'absent' || result.status === 'pending')) {
    await recordResult(deps, policyOf(deps), claimed, result, progress)
    return 'confirmed'
  }
  await markUnconfirmed(deps, target.id, target.postId, target.platform)
  return 'unconfirmed'
}

async function markUnconfirmed(deps: Deps, targetId: string, postId: string, platform: string): Promise<void> {
  const now = deps.clock.now()
  const outbox = newOutbox()
  const nextPostId = await deps.db.transaction(async (tx) => {
    const locked = await lockPostRow(tx, postId)
    if (!locked) return null
    await failUnconfirmedTarget(tx, targetId, {
      now,
      error: {
        code: 'unconfirmed',
        message: `We lost track of this publish and ${platform} cannot tell us whether it went out: check the account, and use retry only if the post is not there.`,
        retryable: true,
      },
    })
    await recordTargetSettled(tx, outbox, locked, targetId, now)
    return settlePost(tx, postId, now, outbox, locked)
  })
  await sendOutbox(deps, outbox)
  if (nextPostId) await dispatchPendingTargets(deps, nextPostId)
}

/**
 * Node start-up: the in-process queue starts empty, so the pending deliveries that no live server's
 * queue holds (none dispatched, or dispatched to a boot that has not beaten for `deadAfterSec` or to
 * an earlier boot of this instance) are taken into it, at their own time, before the first sweep
 * would; those another live server holds stay with it (docs/architecture.md, "Several servers").
 * Without a holder (a process that takes no claims), every pending one.
 */
export async function requeuePendingTargets(
  deps: Deps,
  liveness: { deadAfterSec: number } = { deadAfterSec: 10 },
): Promise<number> {
  const me = deps.settings.leaseHolder
  const now = deps.clock.now()
  if (me) {
    const taken = await takeOverDeliveries(deps.db, { me, now, deadAfterSec: liveness.deadAfterSec })
    await enqueueTaken(deps, taken)
    return taken.length
  }
  const rows = await selectAllPendingDeliveries(deps.db)
  if (rows.length === 0) return 0
  await deps.publishQueue.enqueue(
    rows.map((r) => ({ targetId: r.id, version: r.version, notBefore: r.dueAt!, attempt: r.attempts + 1 })),
  )
  for (let i = 0; i < rows.length; i += 1000) {
    await markTargetsDispatched(
      deps.db,
      rows.slice(i, i + 1000).map((r) => r.id),
      { at: now, by: null },
    )
  }
  return rows.length
}
