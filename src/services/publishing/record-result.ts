import { writeTargetResults } from '../../db/queries/targets'
import type { Deps } from '../../deps'
import { decideTarget, type TargetDecision } from '../../domain/publishing/decision'
import type { PublishPolicy } from '../../domain/publishing/policy'
import type { PublishProgress, PublishResult } from '../../networks/adapter'
import { settlePost } from './aggregate'
import { lockPostWithEndpoints } from '../../db/queries/publishing-posts'
import type { ClaimedTarget } from './claim'
import { dispatchPendingTargets } from './dispatch'
import { expireAccount } from '../accounts/accounts'
import { newOutbox, recordEvents, sendOutbox } from '../webhooks/outbox'
import { type EngineEvent, targetSettledEvent } from '../webhooks/publish-events'
import { notifyTargetFailed } from '../notifications/triggers'
import { recordEngineActivity } from '../activity/engine'

export type PublishOutcome = 'published' | 'pending' | 'retrying' | 'failed' | 'skipped'

type EngineDeps = Pick<Deps, 'db' | 'clock' | 'publishQueue' | 'logger' | 'webhookQueue' | 'settings'>

/** One claimed target's answer from its network, to record. */
export interface TargetAnswer {
  claimed: ClaimedTarget
  result: PublishResult
  progress: PublishProgress
}

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
  const [outcome] = await recordResults(deps, policy, [{ claimed, result, progress }])
  return outcome!
}

/**
 * `recordResult` for several targets of one post that finished together: one transaction (the post
 * locked once, the targets written in one statement per shape of change, the post's status once,
 * every event and its outbox rows in a few statements), then the follow-ups. The outcome of each,
 * in order ('skipped': no longer ours).
 */
export async function recordResults(
  deps: EngineDeps,
  policy: PublishPolicy,
  answers: TargetAnswer[],
): Promise<PublishOutcome[]> {
  const now = deps.clock.now()
  const postId = answers[0]!.claimed.target.postId
  if (answers.some((a) => a.claimed.target.postId !== postId)) throw new Error('recordResults takes one post')
  const decisions = answers.map(({ claimed: { target }, result, progress }) =>
    decideTarget({ answer: result, platform: target.platform, attempts: target.attempts, progress, now, policy }),
  )
  const outbox = newOutbox()
  const followUp = await deps.db.transaction(async (tx) => {
    // Lock order everywhere: the post, then its targets. The workspace's webhook endpoints come with
    // the lock, for the events below (one statement fewer per result).
    const lockedWithEndpoints = await lockPostWithEndpoints(tx, postId)
    if (!lockedWithEndpoints) return { nextPostId: null, written: answers.map(() => false) }
    const { post: locked, endpoints } = lockedWithEndpoints
    const rows = await writeTargetResults(
      tx,
      answers.map(({ claimed }, i) => ({
        claimed: claimed.target,
        change: { ...decisions[i]!.change, leaseUntil: null, updatedAt: now, progress: decisions[i]!.progress },
      })),
    )
    const written = rows.map((row) => row !== null)
    const events: EngineEvent[] = []
    for (const [i, row] of rows.entries()) {
      const event = row ? targetSettledEvent(postId, row, now) : null
      if (event) events.push(event)
      if (row?.status === 'FAILED') {
        await notifyTargetFailed(tx, { workspaceId: locked.workspaceId, postId, target: row, now })
      }
      const expired = decisions[i]!.expiredAccountMessage
      if (row && expired !== null) {
        // The events in the order they happened: this target's before its account's.
        const settled = events.splice(0)
        await recordEvents(tx, outbox, locked.workspaceId, settled, endpoints)
        await recordEngineActivity(tx, locked.workspaceId, settled)
        await expireAccount(tx, outbox, row.accountId, expired, now)
      }
    }
    if (!written.some(Boolean)) return { nextPostId: null, written }
    const nextPostId = await settlePost(tx, postId, now, outbox, locked, events)
    // The targets' events and the post's, in this transaction.
    await recordEvents(tx, outbox, locked.workspaceId, events, endpoints)
    await recordEngineActivity(tx, locked.workspaceId, events)
    return { nextPostId, written }
  })
  if (followUp.written.some(Boolean)) await sendOutbox(deps, outbox)
  const retried = answers.filter((_a, i) => followUp.written[i] && decisions[i]!.change.status === 'PENDING')
  if (retried.length > 0)
    await dispatchPendingTargets(
      deps,
      postId,
      retried.map((a) => a.claimed.target.id),
    )
  if (followUp.nextPostId) await dispatchPendingTargets(deps, followUp.nextPostId)
  return decisions.map((d: TargetDecision, i) => (followUp.written[i] ? d.outcome : 'skipped'))
}
