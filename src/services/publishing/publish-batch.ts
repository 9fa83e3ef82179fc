import { listAccountsByIds } from '../../db/queries/accounts'
import type { Deps } from '../../deps'
import type { PublishProgress } from '../../networks/adapter'
import { callStartMarker } from './call-starts'
import { claimTargetBatch } from './claim'
import { callNetwork, type DeliveryRef, policyOf, publishTarget } from './publish-target'
import { postResultWriter } from './post-results'
import type { PublishOutcome } from './record-result'

/** Publishes a batch of deliveries: one promise per delivery, in order. */
export type BatchPublisher = (deliveries: DeliveryRef[]) => Array<Promise<PublishOutcome>>

/**
 * `publishTarget` for many deliveries at once (Node's in-process queue, which keeps one publisher
 * for all its batches): one batch claim (`claimTargetBatch`: a few statements for the whole batch)
 * and one read of the claimed targets' accounts, then each claimed target's network call, marked as
 * started just before it (`callStartMarker`: the markers asked for together in one statement), and
 * its result, as `publishTarget` makes them; the results of one post that finish close together,
 * in this batch or another, in one transaction (`postResultWriter`). A delivery whose post another
 * transaction held goes through `publishTarget` (whose claim waits for the lock). One promise per
 * delivery, in order, each settling when that delivery is done, so the queue frees a slot per
 * delivery; if the claim fails, every promise rejects and the targets stay PENDING for the sweep.
 */
export function batchPublisher(deps: Deps): BatchPublisher {
  const policy = policyOf(deps)
  const holder = deps.settings.leaseHolder ?? null
  const results = postResultWriter(deps, policy)
  const markStarted = callStartMarker(deps)
  return (deliveries) => {
    const batch = claimTargetBatch(deps.db, deliveries, deps.clock.now(), policy.leaseSec, holder).then(
      async (claim) => {
        // Every claimed target's answer is expected from now on: siblings wait for it (a bounded wait).
        for (const mine of claim.claimed) if (mine) results.expect(mine.target.postId)
        try {
          const accountIds = [...new Set(claim.claimed.flatMap((c) => (c ? [c.target.accountId] : [])))]
          const accounts = new Map((await listAccountsByIds(deps.db, accountIds)).map((a) => [a.id, a]))
          return { ...claim, busy: new Set(claim.busy), accounts }
        } catch (err) {
          for (const mine of claim.claimed) if (mine) results.forgo(mine.target.postId)
          throw err
        }
      },
    )
    return deliveries.map(async (delivery, i) => {
      const { claimed, busy, accounts } = await batch
      if (busy.has(i)) return publishTarget(deps, delivery)
      const mine = claimed[i]
      if (!mine) return 'skipped'
      const postId = mine.target.postId
      let result: Awaited<ReturnType<typeof callNetwork>>
      const progress: PublishProgress = { ...(mine.target.progress ?? {}) }
      try {
        const account = accounts.get(mine.target.accountId) ?? null
        // A crash before a call's marker is committed sends its claim back to PENDING (nothing was sent).
        result = await callNetwork(deps, mine, progress, false, account, () => markStarted(mine.target))
      } catch (err) {
        results.forgo(postId)
        throw err
      }
      if (!result) {
        results.forgo(postId)
        return 'skipped'
      }
      return results.record({ claimed: mine, result, progress })
    })
  }
}

/** One batch through a publisher of its own (tests; the queue keeps one publisher for all its batches). */
export function publishTargets(deps: Deps, deliveries: DeliveryRef[]): Array<Promise<PublishOutcome>> {
  return batchPublisher(deps)(deliveries)
}
