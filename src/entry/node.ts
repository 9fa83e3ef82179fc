/**
 * `npm start`: the API on Node with embedded defaults (PGlite, in-memory rate limits, in-process
 * jobs). The start in order: listen, open the database while the app's modules load, make the demo
 * workspace on a fresh database, answer, listen for a stop, print the banner, take over earlier
 * boots' work and start the timers (a stop asked for meanwhile waits for them, then is clean); a
 * failed start says why in one line.
 */
import { ConfigError, parseNodeConfig } from '../config'
import { DatabaseOpenError } from '../db/open-error'
import { isDiskFull } from '../lib/disk-full'
import { describeError } from '../infra/logger'
import { DataDirInUseError } from '../runtime/data-dir-lock'
import { openNodeDatabase } from '../runtime/node-database'
import { logBootTimings, printBanner } from './banner'
import { type Fetch, listenForApp } from './node-server'
import { stopOnSignal } from './shutdown'
import { takeOver } from './takeover'
import { startTimers } from './timers'

/**
 * The app and the services, imported once the database is opening: PGlite compiles its
 * WebAssembly off the main thread while these modules load on it.
 */
const loadApp = async () => {
  const [app, clientIp, nodeDeps, demo, orphans, sweep, instances, stranded, jobs, webhooks] = await Promise.all([
    import('../app'),
    import('../runtime/client-ip'),
    import('../runtime/node-deps'),
    import('../services/demo'),
    import('../services/publishing/orphaned-claims'),
    import('../services/publishing/sweep'),
    import('../services/publishing/instances'),
    import('../services/publishing/stranded'),
    import('../services/scheduled-jobs'),
    import('../services/webhooks/deliver'),
  ])
  return {
    ...app,
    ...clientIp,
    ...nodeDeps,
    ...demo,
    ...orphans,
    ...sweep,
    ...instances,
    ...stranded,
    ...jobs,
    ...webhooks,
  }
}

async function main(): Promise<void> {
  const startedAt = performance.now()
  // The AWS SDK's notice about Node versions it will drop in future releases: not a newcomer's concern.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true'
  const config = parseNodeConfig(process.env)
  const liveness = { beatSec: config.INSTANCE_HEARTBEAT_SEC, deadAfterSec: config.INSTANCE_DEAD_AFTER_SEC }
  if (liveness.deadAfterSec < 3 * liveness.beatSec)
    throw new ConfigError([
      'INSTANCE_DEAD_AFTER_SEC: must be at least three heartbeats (INSTANCE_HEARTBEAT_SEC), or a slow beat would pass for a dead server.',
    ])
  // Listen first (PORT=0 picks a port): the deps need the address for sandbox permalinks. Until
  // they are ready, a request waits for them.
  let ready: (fetch: Fetch) => void = () => {}
  const app = new Promise<Fetch>((resolve) => {
    ready = resolve
  })
  const { server, base } = await listenForApp(config, app)
  const listenedAt = performance.now()
  const database = openNodeDatabase(config)
  // Awaited by openNodeRuntime; a failure meanwhile is not an unhandled rejection.
  database.catch(() => {})
  const services = await loadApp()
  const loadedAt = performance.now()
  const runtime = await services.openNodeRuntime(config, { listeningAt: base, database })
  const openedAt = performance.now()
  const demo = await services.bootstrapDemoWorkspace(runtime.deps)
  const demoAt = performance.now()
  const appOptions = services.appOptions(runtime.deps, services.nodeClientIp(config.TRUST_PROXY))
  ready(services.createApp({ ...appOptions, admission: runtime.admission }).fetch)
  const bootMs = Math.round(performance.now() - startedAt)
  logBootTimings(runtime.deps.logger, { startedAt, listenedAt, loadedAt, openedAt, demoAt })
  // The app answers from here on; the local store's back end loads now (a failure still stops the start).
  await runtime.warmUp()
  const stop = stopOnSignal({ server, runtime, services })
  printBanner({ base, bootMs, runtime, demo })
  await takeOver(runtime, liveness, services)
  stop.started(startTimers(runtime, liveness, services))
}

main().catch((err) => {
  if (err instanceof ConfigError || err instanceof DataDirInUseError || err instanceof DatabaseOpenError)
    console.error(err.message)
  else if ((err as NodeJS.ErrnoException)?.code === 'EADDRINUSE')
    console.error('The port is already in use: stop the other process, or set PORT (PORT=0 picks a free one).')
  else if (isDiskFull(err))
    console.error('The disk is full (DATA_DIR, or the database server): free some space, then start again.')
  else console.error(`Start-up failed (${JSON.stringify(describeError(err))}).`)
  process.exit(1)
})
