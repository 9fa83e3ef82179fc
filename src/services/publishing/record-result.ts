import { writeTargetResult } from '../../db/queries/targets'
import type { Deps } from '../../deps'
import { decideTarget } from '../../domain/publishing/decision'
import type { PublishPolicy } from '../../domain/publishing/policy'
import type { PublishProgress, PublishResult } from '../../networks/adapter'
import { settlePost } from './aggregate'
import { lockPostRow, type ClaimedTarget } from './claim'
import { dispatchPendingTargets } from './dispatch'
import { expireAccount } from '../accounts'
import { newOutbox, sendOutbox } from '../webhooks/outbox'
import { recordTargetSettled } from '../webhooks/publish-events'

export type PublishOutcome = 'published' | 'pending' | 'retrying' | 'failed' | 'skipped'

type EngineDeps = Pick<Deps, 'db' | 'clock' | 'publishQueue' | 'logger' | 'webhookQueue'>

/**
 * Writes what the network answered onto the target and the post, in one transaction with the
 * post's status and the events they make (services/webhooks/outbox.ts); then hands any follow-up (a retry, a status check, the next occurrence of a
 * recurring post) to the queue.
 */
export async function recordResult(
  deps: EngineDeps,
  policy: PublishPolicy,
  claimed: ClaimedTarget,
  result: PublishResult,
  progress: PublishProgress,
): Promise<PublishOutcome> {
  const now = deps.clock.now()
  const { target } = claimed
  const decision = decideTarget({
    answer: result,
    platform: target.platform,
    attempts: target.attempts,
    progress,
    now,
    policy,
  })
  const outbox = newOutbox()
  const followUp = await deps.db.transaction(async (tx) => {
    // Lock order everywhere: the post, then its targets.
    const locked = await lockPostRow(tx, target.postId)
    if (!locked) return { nextPostId: null, written: false }
    const written = await writeTargetResult(tx, target, {
      ...decision.change,
      leaseUntil: null,
      updatedAt: now,
      progress: decision.progress,
    })
    if (written.length === 0) return { nextPostId: null, written: false }
    await recordTargetSettled(tx, outbox, locked, target.id, now, written[0])
    if (decision.expiredAccountMessage !== null)
      await expireAccount(tx, outbox, target.accountId, decision.expiredAccountMessage, now)
    return { nextPostId: await settlePost(tx, target.postId, now, outbox, locked), written: true }
  })
  if (!followUp.written) return 'skipped'
  await sendOutbox(deps, outbox)
  if (decision.change.status === 'PENDING') await dispatchPendingTargets(deps, target.postId, [target.id])
  if (followUp.nextPostId) await dispatchPendingTargets(deps, followUp.nextPostId)
  return decision.outcome
}
