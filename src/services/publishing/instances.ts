import {
  recordBeat,
  removeEarlierBoots,
  removeInstance,
  retireInstance,
  takeDeadInstances,
  takeOverDeliveries,
} from '../../db/queries/instances'
import type { Deps } from '../../deps'
import { describeError } from '../../infra/logger'
import { enqueueTaken } from './dispatch'
import { type OrphanReport, resolveOrphanedClaims } from './orphaned-claims'

/**
 * Liveness of the Node servers sharing one database (docs/architecture.md, "Several servers"):
 * each boot beats every `beatSec`; one that has not beaten for `deadAfterSec` is dead, and the next
 * beat of any live server takes over its work: the deliveries its in-process queue held and its
 * claims, resolved as its own restart would resolve them.
 */
export interface Liveness {
  beatSec: number
  deadAfterSec: number
}

export const DEFAULT_LIVENESS: Liveness = { beatSec: 2, deadAfterSec: 10 }

/** Dead boots taken per beat (a crash of every other server at once is the most there can be). */
const DEAD_PER_BEAT = 20

/** Start-up: this boot's row (before it takes any work), and its instance's earlier boots' rows gone. */
export async function registerInstance(deps: Deps): Promise<void> {
  const holder = deps.settings.leaseHolder
  if (!holder) return
  await recordBeat(deps.db, holder)
  await removeEarlierBoots(deps.db, holder)
}

/** A clean stop, once the publishes in flight have finished: any live server takes over what is left. */
export async function retire(deps: Deps): Promise<void> {
  if (deps.settings.leaseHolder) await retireInstance(deps.db, deps.settings.leaseHolder)
}

/**
 * One beat: this boot's row says it is alive, and so do the rows of the dead boots it is resolving
 * (`resolving`), which no other server then takes. A beat that finds this boot's own row gone
 * (another server took it for dead: it could not beat for `deadAfterSec`) says so in the log: its
 * claims were taken over, and its own writes to them are fenced off by their new leases.
 */
export async function beat(deps: Deps, liveness: Liveness, resolving: ReadonlySet<string>): Promise<void> {
  const me = deps.settings.leaseHolder
  if (!me) return
  if (!(await recordBeat(deps.db, me, [...resolving])))
    deps.logger.warn('instance_presumed_dead', { deadAfterSec: liveness.deadAfterSec })
}

export interface DeadReport {
  /** Dead boots whose work was taken over. */
  dead: number
  /** Their queued deliveries, now in this server's queue. */
  requeued: number
  orphans: OrphanReport
}

/**
 * The boots that stopped beating, each taken by one live server alone, and their work resolved as
 * their own restart would: the deliveries their queue held go to this server's queue, their claims
 * through `resolveOrphanedClaims`. `resolving` holds each while it is resolved (the beat keeps its
 * row taken); its row goes once all is done. Runs apart from the beat, so a long resolution (the
 * network asked about each claim) never delays this server's own beats.
 */
export async function resolveDeadInstances(
  deps: Deps,
  liveness: Liveness,
  resolving: Set<string>,
): Promise<DeadReport> {
  const report: DeadReport = { dead: 0, requeued: 0, orphans: { released: 0, confirmed: 0, unconfirmed: 0 } }
  const me = deps.settings.leaseHolder
  if (!me) return report
  const dead = await takeDeadInstances(deps.db, { me, deadAfterSec: liveness.deadAfterSec, limit: DEAD_PER_BEAT })
  for (const holder of dead) {
    resolving.add(holder)
    try {
      const taken = await takeOverDeliveries(deps.db, {
        me,
        now: deps.clock.now(),
        deadAfterSec: liveness.deadAfterSec,
        from: holder,
      })
      await enqueueTaken(deps, taken)
      const orphans = await resolveOrphanedClaims(deps, { everyHolder: false, deadHolder: holder })
      // Only now: a server dying before this line leaves the row for another one to take again.
      await removeInstance(deps.db, holder)
      report.dead++
      report.requeued += taken.length
      for (const k of ['released', 'confirmed', 'unconfirmed'] as const) report.orphans[k] += orphans[k]
      deps.logger.info('dead_instance_resolved', { instance: holder, requeued: taken.length, ...orphans })
    } catch (err) {
      // Its row was touched when taken: another server (or this one) takes it again after deadAfterSec.
      deps.logger.error('dead_instance_failed', { instance: holder, ...describeError(err) })
    } finally {
      resolving.delete(holder)
    }
  }
  return report
}
