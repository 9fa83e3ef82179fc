/**
 * The timers of `npm start`: the scheduled jobs every minute, the inbox sync's short timer
 * (`inbox-sync-timer.ts`) and, on PostgreSQL, liveness (docs/architecture.md, "Several servers"):
 * the heartbeat, taking over the work of servers that stopped beating, and resolving the deliveries
 * this boot gave up while the database was away. The services are the caller's, loaded while the
 * database opened.
 */
import type { Deps } from '../deps'
import { describeError } from '../infra/logger'
import type { NodeRuntime } from '../runtime/node-deps'
import type * as InstancesModule from '../services/publishing/instances'
import type * as StrandedModule from '../services/publishing/stranded'
import type * as JobsModule from '../services/scheduled-jobs'
import { startInboxSyncTimer } from './inbox-sync-timer'

type LivenessServices = Pick<typeof InstancesModule, 'beat' | 'resolveDeadInstances'> &
  Pick<typeof StrandedModule, 'resolveStrandedDeliveries'>

export type TimerServices = LivenessServices & Pick<typeof JobsModule, 'runScheduledJobs'>

export interface Timers {
  /** Stops the scheduled jobs' and the inbox sync's timers (a run in flight goes on). */
  stop(): void
  /** Stops the liveness loops and waits for their runs in flight. */
  stopLiveness(): Promise<void>
}

/**
 * Runs `run` every `everySec` (unref'd), never two at once; the returned function stops it and waits
 * for a run in flight. A failure is logged as `failed`.
 */
function repeat(logger: Deps['logger'], failed: string, everySec: number, run: () => Promise<unknown>) {
  let running: Promise<unknown> | null = null
  const timer = setInterval(() => {
    if (running) return
    running = run()
      .catch((err: unknown) => logger.error(failed, describeError(err)))
      .finally(() => {
        running = null
      })
  }, everySec * 1000)
  timer.unref()
  return async () => {
    clearInterval(timer)
    await running
  }
}

/**
 * Every INSTANCE_HEARTBEAT_SEC this boot beats (with the rows of the dead boots it is resolving),
 * and, in a loop of its own so that a long resolution never delays a beat, takes over the work of
 * boots that stopped beating. At the same pace, once the database answers again after it went away,
 * the deliveries this boot gave up meanwhile (`stranded`) are resolved as a restart would resolve
 * them, not left to their lease.
 */
function startLiveness(
  deps: Deps,
  liveness: InstancesModule.Liveness,
  services: LivenessServices,
  stranded: StrandedModule.StrandedDeliveries,
): () => Promise<void> {
  const resolving = new Set<string>()
  const stopBeat = repeat(deps.logger, 'heartbeat_failed', liveness.beatSec, () =>
    services.beat(deps, liveness, resolving),
  )
  const stopResolve = repeat(deps.logger, 'dead_instances_failed', liveness.beatSec, async () => {
    const report = await services.resolveDeadInstances(deps, liveness, resolving)
    if (report.dead > 0)
      deps.logger.info('dead_instances', { ...report.orphans, dead: report.dead, requeued: report.requeued })
  })
  const stopStranded = repeat(deps.logger, 'stranded_deliveries_failed', liveness.beatSec, async () => {
    if (stranded.size === 0) return
    const report = await services.resolveStrandedDeliveries(deps, stranded)
    if (report.released + report.confirmed + report.unconfirmed + report.redispatched > 0)
      deps.logger.info('stranded_deliveries_resolved', { ...report })
  })
  return async () => {
    await Promise.all([stopBeat(), stopResolve(), stopStranded()])
  }
}

export function startTimers(
  runtime: Pick<NodeRuntime, 'deps' | 'database' | 'stranded'>,
  liveness: InstancesModule.Liveness,
  services: TimerServices,
): Timers {
  // PGlite is this process's alone: no other server to beat for, none to take over from.
  const stopLiveness =
    runtime.database === 'pglite' ? async () => {} : startLiveness(runtime.deps, liveness, services, runtime.stranded)
  const timer = setInterval(() => void services.runScheduledJobs(runtime.deps), 60_000)
  timer.unref()
  const stopInboxSync = startInboxSyncTimer(runtime.deps)
  return {
    stop: () => {
      clearInterval(timer)
      stopInboxSync()
    },
    stopLiveness,
  }
}
