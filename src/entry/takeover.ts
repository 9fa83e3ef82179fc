/**
 * What a boot of `npm start` takes over before its timers start. It says it is alive before it takes
 * any work (another server starting now leaves its work alone). The in-process queue starts empty:
 * it is handed every pending publish no live server holds; claims an earlier boot left in flight (a
 * crash) are resolved now rather than when their lease runs out; webhook attempts that were due when
 * an earlier boot stopped go out now, not a minute from now. The services are the caller's, loaded
 * while the database opened.
 */
import { describeError } from '../infra/logger'
import type { NodeRuntime } from '../runtime/node-deps'
import type * as InstancesModule from '../services/publishing/instances'
import type * as OrphansModule from '../services/publishing/orphaned-claims'
import type * as SweepModule from '../services/publishing/sweep'
import type * as WebhooksModule from '../services/webhooks/deliver'

export type TakeoverServices = Pick<typeof InstancesModule, 'registerInstance'> &
  Pick<typeof SweepModule, 'requeuePendingTargets'> &
  Pick<typeof OrphansModule, 'resolveOrphanedClaims'> &
  Pick<typeof WebhooksModule, 'sweepWebhooks'>

export async function takeOver(
  runtime: Pick<NodeRuntime, 'deps' | 'database'>,
  liveness: InstancesModule.Liveness,
  services: TakeoverServices,
): Promise<void> {
  const { deps } = runtime
  await services.registerInstance(deps)
  const requeued = await services.requeuePendingTargets(deps, liveness)
  if (requeued > 0) deps.logger.info('publishes_requeued', { count: requeued })
  const orphans = await services.resolveOrphanedClaims(deps, { everyHolder: runtime.database === 'pglite' })
  if (orphans.released + orphans.confirmed + orphans.unconfirmed > 0)
    deps.logger.info('orphaned_claims_resolved', { ...orphans })
  void services.sweepWebhooks(deps).then(
    (report) => report.attempted > 0 && deps.logger.info('webhook_sweep', { ...report }),
    (err: unknown) => deps.logger.error('webhook_sweep_failed', describeError(err)),
  )
}
