import {
  markTargetsDispatched,
  type PendingDelivery,
  selectPendingDeliveriesOf,
  selectPostPendingDeliveries,
} from '../../db/queries/target-deliveries'
import type { TakenDelivery } from '../../db/queries/instances'
import type { Deps } from '../../deps'
import { describeError } from '../../infra/logger'

/**
 * Hands the post's PENDING targets to the queue at their due time and notes when, so the
 * sweep knows they were dispatched. Called after the transaction that made them due, so it
 * never fails the request: what it could not hand over, the sweep re-dispatches (their
 * `dispatchedAt` stays unset). A failed request would make a client retry, and a retry a
 * second post.
 */
export async function dispatchPendingTargets(
  deps: Pick<Deps, 'db' | 'publishQueue' | 'clock' | 'logger' | 'settings'>,
  postId: string,
  onlyTargetIds?: string[],
): Promise<number> {
  try {
    return await handOver(deps, postId, onlyTargetIds)
  } catch (err) {
    deps.logger.error('dispatch_failed', { postId, ...describeError(err) })
    return 0
  }
}

/**
 * `dispatchPendingTargets` for targets the caller has just written and holds (a create): the same
 * hand-over without reading them back. `targets`: the PENDING targets, with their post's version.
 */
export async function dispatchWrittenTargets(
  deps: Pick<Deps, 'db' | 'publishQueue' | 'clock' | 'logger' | 'settings'>,
  postId: string,
  targets: PendingDelivery[],
): Promise<number> {
  try {
    return await enqueueDue(deps, targets)
  } catch (err) {
    deps.logger.error('dispatch_failed', { postId, ...describeError(err) })
    return 0
  }
}

/**
 * The PENDING ones among `targetIds`, whatever their post, to the queue at their due time (targets
 * whose delivery this process dropped: their run failed before it could claim them).
 */
export async function dispatchTargets(
  deps: Pick<Deps, 'db' | 'publishQueue' | 'clock' | 'settings'>,
  targetIds: string[],
): Promise<number> {
  if (targetIds.length === 0) return 0
  return enqueueDue(deps, await selectPendingDeliveriesOf(deps.db, targetIds))
}

async function handOver(
  deps: Pick<Deps, 'db' | 'publishQueue' | 'clock' | 'settings'>,
  postId: string,
  onlyTargetIds?: string[],
): Promise<number> {
  return enqueueDue(deps, await selectPostPendingDeliveries(deps.db, postId, onlyTargetIds))
}

async function enqueueDue(
  deps: Pick<Deps, 'db' | 'publishQueue' | 'clock' | 'settings'>,
  rows: PendingDelivery[],
): Promise<number> {
  const due = rows.filter((r) => r.dueAt !== null)
  if (due.length === 0) return 0
  await deps.publishQueue.enqueue(
    due.map((r) => ({ targetId: r.id, version: r.version, notBefore: r.dueAt!, attempt: r.attempts + 1 })),
  )
  await markTargetsDispatched(
    deps.db,
    due.map((r) => r.id),
    { at: deps.clock.now(), by: deps.settings.leaseHolder ?? null },
  )
  return due.length
}

/**
 * Deliveries already noted as this server's (taken over from a dead one, or at start-up), into its
 * queue. `redispatchedAt`: the sweep's time, when it hands over targets nothing claimed since their
 * dispatch (a new message for a queue that remembers delivered ids).
 */
export async function enqueueTaken(
  deps: Pick<Deps, 'publishQueue'>,
  taken: TakenDelivery[],
  redispatchedAt?: Date,
): Promise<void> {
  if (taken.length === 0) return
  await deps.publishQueue.enqueue(
    taken.map((r) => ({
      targetId: r.id,
      version: r.version,
      notBefore: r.dueAt!,
      attempt: r.attempts + 1,
      ...(redispatchedAt ? { redispatchedAt } : {}),
    })),
  )
}
