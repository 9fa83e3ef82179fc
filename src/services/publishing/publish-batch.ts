import { listAccountsByIds } from '../../db/queries/accounts'
import { markCallStarted } from '../../db/queries/target-claims'
import type { Deps } from '../../deps'
import type { PublishProgress } from '../../networks/adapter'
import { claimTargetBatch } from './claim'
import { callNetwork, type DeliveryRef, policyOf, publishTarget } from './publish-target'
import { postResultWriter } from './post-results'
import type { PublishOutcome } from './record-result'

/**
 * `publishTarget` for many deliveries at once (Node's in-process queue): one batch claim
 * (`claimTargetBatch`: a few statements for the whole batch) and one read of the claimed targets'
 * accounts, then each claimed target's network call (marked as started just before it) and result,
 * as `publishTarget` makes them, the results of one post that finish together in one transaction.
 * A delivery whose post another transaction held goes through `publishTarget` (whose claim waits
 * for the lock). One promise per delivery, in order, each settling when that delivery is done, so
 * the queue frees a slot per delivery; if the claim fails, every promise rejects and the targets
 * stay PENDING for the sweep.
 */
export function publishTargets(deps: Deps, deliveries: DeliveryRef[]): Array<Promise<PublishOutcome>> {
  const policy = policyOf(deps)
  const holder = deps.settings.leaseHolder ?? null
  const batch = claimTargetBatch(deps.db, deliveries, deps.clock.now(), policy.leaseSec, holder).then(async (claim) => {
    const accountIds = [...new Set(claim.claimed.flatMap((c) => (c ? [c.target.accountId] : [])))]
    const accounts = new Map((await listAccountsByIds(deps.db, accountIds)).map((a) => [a.id, a]))
    return { ...claim, busy: new Set(claim.busy), accounts }
  })
  const record = postResultWriter(deps, policy)
  return deliveries.map(async (delivery, i) => {
    const { claimed, busy, accounts } = await batch
    if (busy.has(i)) return publishTarget(deps, delivery)
    const mine = claimed[i]
    if (!mine) return 'skipped'
    const progress: PublishProgress = { ...(mine.target.progress ?? {}) }
    const account = accounts.get(mine.target.accountId) ?? null
    // A batch's calls start one by one: each marks its own start, so a crash before it sends the claim back to PENDING.
    const markStarted = () => markCallStarted(deps.db, mine.target, deps.clock.now())
    const result = await callNetwork(deps, mine, progress, false, account, markStarted)
    if (!result) return 'skipped'
    return record({ claimed: mine, result, progress })
  })
}
