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

/** What `main` tells the stop once the timers run (a signal before then waits for them). */
export interface Stop {
  started(timers: Timers): void
}

/**
 * Listens for SIGINT and SIGTERM from before the banner is printed, so a stop asked for as soon as
 * the address shows is a clean one; the timers, started after the takeover, are stopped once there.
 */
export function stopOnSignal(options: {
  server: Server
  runtime: NodeRuntime
  services: Pick<typeof InstancesModule, 'retire'>
}): Stop {
  const { server, runtime, services } = options
  let started: (timers: Timers) => void = () => {}
  const timersRunning = new Promise<Timers>((resolve) => {
    started = resolve
  })
  const shutdown = () => {
    runtime.stopping()
    setTimeout(() => {
      runtime.deps.logger.error('shutdown_timeout', { limitMs: SHUTDOWN_LIMIT_MS })
      process.exit(1)
    }, SHUTDOWN_LIMIT_MS).unref()
    void timersRunning
      .then((timers) => {
        timers.stop()
        return closeServer(server).then(() => Promise.all([timers.stopLiveness(), runtime.publishQueue.close()]))
      })
      .then(() => services.retire(runtime.deps))
      .catch((err: unknown) => runtime.deps.logger.error('retire_failed', describeError(err)))
      .then(() => runtime.close())
      .finally(() => process.exit(0))
  }
  process.once('SIGINT', shutdown)
  process.once('SIGTERM', shutdown)
  return { started }
}
