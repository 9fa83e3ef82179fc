import { type OrphanedClaims, selectOrphanedClaimIds, takeOverOrphanedClaim } from '../../db/queries/target-deliveries'
import { isDatabaseUnavailable } from '../../db/unavailable'
import type { Deps } from '../../deps'
import { describeError } from '../../infra/logger'
import { policyOf } from './publish-target'
import { resolveTakenOverClaim } from './sweep'

/** Claims resolved per query; a crash leaves at most the queue's concurrency in flight, so one batch is usual. */
const BATCH = 200
/** Claims resolved at once (each a network check and a transaction or two). */
const AT_ONCE = 16

export interface OrphanReport {
  /** Claims whose network call had not started: back to PENDING, published as usual. */
  released: number
  confirmed: number
  unconfirmed: number
}

/**
 * Claims in PUBLISHING whose holder is gone cannot finish, yet their lease would keep the sweep
 * away for minutes. This process knows they are orphaned: at Node start-up after a crash (on PGlite
 * it holds the database alone: every claim not its own; on PostgreSQL, the claims of its own
 * instance's earlier boots), or on a live server, the claims of `deadHolder`, another server's boot
 * that stopped beating (`resolveDeadInstances`), or its own `stranded` claims, whose work it gave up
 * when the database went away (`resolveStrandedDeliveries`). It takes each over at once, exactly as the sweep
 * does for an expired lease: back to PENDING if its network call never started, else the network is
 * asked what became of it: never published blindly twice.
 */
export async function resolveOrphanedClaims(
  deps: Deps,
  // One workspace only: a test sharing its database with others (as for the sweep).
  scope: { everyHolder: boolean; deadHolder?: string; stranded?: string[]; workspaceId?: string },
): Promise<OrphanReport> {
  const report: OrphanReport = { released: 0, confirmed: 0, unconfirmed: 0 }
  const holder = deps.settings.leaseHolder
  if (!holder) return report
  const orphans: OrphanedClaims = {
    holder,
    everyHolder: scope.everyHolder,
    ...(scope.deadHolder ? { deadHolder: scope.deadHolder } : {}),
    ...(scope.stranded ? { stranded: scope.stranded } : {}),
  }
  const tried = new Set<string>()
  for (;;) {
    const batch = (
      await selectOrphanedClaimIds(deps.db, { orphans, workspaceId: scope.workspaceId, limit: BATCH })
    ).filter((r) => !tried.has(r.id))
    if (batch.length === 0) return report
    for (const { id } of batch) tried.add(id)
    // A few at once: each may wait on its network, and a dead server can leave hundreds.
    for (let i = 0; i < batch.length; i += AT_ONCE) {
      const done = await Promise.allSettled(
        batch.slice(i, i + AT_ONCE).map(({ id }) => resolveOne(deps, { id, holder, orphans, report })),
      )
      // Only stranded claims rethrow (the database went away again): their caller keeps them for the next pass.
      const failed = done.find((r) => r.status === 'rejected')
      if (failed) throw failed.reason
    }
  }
}

async function resolveOne(
  deps: Deps,
  job: { id: string; holder: string; orphans: OrphanedClaims; report: OrphanReport },
): Promise<void> {
  try {
    const now = deps.clock.now()
    const target = await takeOverOrphanedClaim(deps.db, job.id, {
      now,
      leaseUntil: new Date(now.getTime() + policyOf(deps).leaseSec * 1000),
      holder: job.holder,
      orphans: job.orphans,
    })
    if (!target) return
    job.report[await resolveTakenOverClaim(deps, target)]++
  } catch (err) {
    // A stranded claim met the database gone again: its caller tries again at the next heartbeat
    // rather than leave it to the lease it has just renewed.
    if (job.orphans.stranded && isDatabaseUnavailable(err)) throw err
    // Left to the sweep, which looks again once the (new) lease runs out.
    deps.logger.error('orphaned_claim_failed', { targetId: job.id, ...describeError(err) })
  }
}
