import { isDatabaseUnavailable } from '../../db/unavailable'
import type { Deps } from '../../deps'
import { describeError } from '../../infra/logger'
import { dispatchTargets } from './dispatch'
import { type OrphanReport, resolveOrphanedClaims } from './orphaned-claims'

/** Targets resolved per pass of queries. */
const BATCH = 500

/**
 * The deliveries of this process's queue whose run failed because the database could not be reached
 * (stopped, restarting, its connections cut), by target: each may have left a claim of this boot in
 * PUBLISHING (the claim committed, its result could not be written) or a target PENDING that no
 * queue holds any more. Nothing of this process works on them; left alone, the claim would wait for
 * its lease and the target for the sweep. A target leaves the set when a delivery of it runs again.
 */
export interface StrandedDeliveries {
  readonly size: number
  /** A delivery of the target starts: whatever failed before is this run's business now. */
  started(targetId: string): void
  /** A delivery of the target failed with `err`: kept when the database was unavailable. */
  failed(targetId: string, err: unknown): void
  /** Every target kept, the set emptied. */
  take(): string[]
  /** Targets taken that could not be resolved (the database went away again): kept for the next try. */
  keep(targetIds: string[]): void
}

export function strandedDeliveries(): StrandedDeliveries {
  const ids = new Set<string>()
  return {
    get size() {
      return ids.size
    },
    started: (targetId) => ids.delete(targetId),
    failed: (targetId, err) => {
      if (isDatabaseUnavailable(err)) ids.add(targetId)
    },
    take: () => {
      const all = [...ids]
      ids.clear()
      return all
    },
    keep: (targetIds) => {
      for (const id of targetIds) ids.add(id)
    },
  }
}

type Run<D> = (delivery: D) => Promise<unknown>
type RunBatch<D> = (deliveries: D[]) => Array<Promise<unknown>>

/** The queue's run functions, noting in `stranded` each delivery that starts and each that fails. */
export function watchedRuns<D extends { targetId: string }>(
  stranded: StrandedDeliveries,
  run: Run<D>,
  runBatch: RunBatch<D>,
): { run: Run<D>; runBatch: RunBatch<D> } {
  const watch = (delivery: D, running: Promise<unknown>) =>
    running.catch((err: unknown) => {
      stranded.failed(delivery.targetId, err)
      throw err
    })
  return {
    run: (delivery) => {
      stranded.started(delivery.targetId)
      return watch(
        delivery,
        Promise.resolve().then(() => run(delivery)),
      )
    },
    runBatch: (deliveries) => {
      for (const d of deliveries) stranded.started(d.targetId)
      return runBatch(deliveries).map((running, i) => watch(deliveries[i]!, running))
    },
  }
}

export interface StrandedReport extends OrphanReport {
  /** Targets still PENDING (their claim never committed), handed to the queue again. */
  redispatched: number
}

/**
 * Once the database answers again (the next heartbeat of a live server), the stranded deliveries
 * are resolved as a restart resolves its earlier boot's: this boot's claims among them through
 * `resolveOrphanedClaims` (back to PENDING if the network call never started, else the network is
 * asked what became of it: never published blindly twice), and those left PENDING back to the
 * queue. A pass that meets the database unavailable again keeps what it could not resolve.
 */
export async function resolveStrandedDeliveries(deps: Deps, stranded: StrandedDeliveries): Promise<StrandedReport> {
  const report: StrandedReport = { released: 0, confirmed: 0, unconfirmed: 0, redispatched: 0 }
  const ids = stranded.take()
  for (let i = 0; i < ids.length; i += BATCH) {
    const batch = ids.slice(i, i + BATCH)
    try {
      const orphans = await resolveOrphanedClaims(deps, { everyHolder: false, stranded: batch })
      for (const k of ['released', 'confirmed', 'unconfirmed'] as const) report[k] += orphans[k]
      report.redispatched += await dispatchTargets(deps, batch)
    } catch (err) {
      stranded.keep(ids.slice(i))
      if (!isDatabaseUnavailable(err)) deps.logger.error('stranded_deliveries_failed', describeError(err))
      break
    }
  }
  return report
}
