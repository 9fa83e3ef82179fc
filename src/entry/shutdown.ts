/**
 * How `npm start` stops on SIGINT or SIGTERM: the locks say so at once (a start meanwhile waits for
 * this process), the port is let go, the requests and publishes in flight finish, this boot's row
 * says it is gone (another server takes over the deliveries its queue held for later), then the
 * database closes and the locks go. A stop taking too long ends the process as a crash would.
 */
import type { Server } from 'node:http'
import { describeError } from '../infra/logger'
import type { NodeRuntime } from '../runtime/node-deps'
import type * as InstancesModule from '../services/publishing/instances'
import { closeServer } from './node-server'
import type { Timers } from './timers'

/**
 * A stop taking longer ends the process as a crash would (the next start resolves the publishes it
 * left in flight), well before a start waiting for it gives up (30 s, `lockDataDir`).
 */
const SHUTDOWN_LIMIT_MS = 20_000

export function stopOnSignal(options: {
  server: Server
  runtime: NodeRuntime
  timers: Timers
  services: Pick<typeof InstancesModule, 'retire'>
}): void {
  const { server, runtime, timers, services } = options
  const shutdown = () => {
    timers.stop()
    runtime.stopping()
    setTimeout(() => {
      runtime.deps.logger.error('shutdown_timeout', { limitMs: SHUTDOWN_LIMIT_MS })
      process.exit(1)
    }, SHUTDOWN_LIMIT_MS).unref()
    void closeServer(server)
      .then(() => Promise.all([timers.stopLiveness(), runtime.publishQueue.close()]))
      .then(() => services.retire(runtime.deps))
      .catch((err: unknown) => runtime.deps.logger.error('retire_failed', describeError(err)))
      .then(() => runtime.close())
      .finally(() => process.exit(0))
  }
  process.once('SIGINT', shutdown)
  process.once('SIGTERM', shutdown)
}
