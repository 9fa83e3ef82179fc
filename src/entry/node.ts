import type { Server } from 'node:http'
import { startInboxSyncTimer } from './inbox-sync-timer'
import type { AddressInfo, Socket } from 'node:net'
import { createAdaptorServer } from '@hono/node-server'
import { ConfigError, parseNodeConfig } from '../config'
import { DatabaseOpenError } from '../db/open-error'
import type { Deps } from '../deps'
import type * as InstancesModule from '../services/publishing/instances'
import type * as StrandedModule from '../services/publishing/stranded'
import { AppError } from '../domain/errors'
import { errorBody } from '../http/errors'
import { isDiskFull } from '../lib/disk-full'
import { randomBase62 } from '../lib/ids'
import { listenWithRetry } from '../infra/listen'
import { describeError } from '../infra/logger'
import { DataDirInUseError } from '../runtime/data-dir-lock'
import { openNodeDatabase } from '../runtime/node-database'

type Liveness = InstancesModule.Liveness
type LivenessServices = Pick<typeof InstancesModule, 'beat' | 'resolveDeadInstances'> &
  Pick<typeof StrandedModule, 'resolveStrandedDeliveries'>

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

type Fetch = (request: Request, env: unknown) => Response | Promise<Response>

/** The address the server listens on, as a base URL. */
function baseUrl(info: AddressInfo): string {
  return `http://${info.address.includes(':') ? `[${info.address}]` : info.address}:${info.port}`
}

/**
 * Headers Node accepts (its default is 16 KiB): enough for any token, so an oversized one still
 * reaches the app and gets the API's 401 instead of a bare 431 from the parser.
 */
const MAX_HEADER_BYTES = 64 * 1024

/**
 * Headers beyond even that never reach the app: Node's parser refuses them and, by default,
 * answers a bare 431 with no body. Answer with the API's error body instead; every other client
 * error keeps Node's default handling (a bare 400, or nothing on a socket that cannot be written).
 */
const BAD_REQUEST = 'HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n'
const NODE_DEFAULT_ANSWERS: Record<string, string> = {
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 'HTTP/1.1 413 Payload Too Large\r\nConnection: close\r\n\r\n',
  ERR_HTTP_REQUEST_TIMEOUT: 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n',
}

function answerOversizedHeaders(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (err.code !== 'HPE_HEADER_OVERFLOW' || !socket.writable) {
      // What Node does without a listener (lib/_http_server.js socketOnError).
      if (socket.writable && socket.bytesWritten === 0)
        socket.write(NODE_DEFAULT_ANSWERS[err.code ?? ''] ?? BAD_REQUEST)
      socket.destroy(err)
      return
    }
    const requestId = `req_${randomBase62(20)}`
    const body = JSON.stringify(
      errorBody(
        new AppError(
          'invalid_request',
          `The request headers are too large: send at most ${MAX_HEADER_BYTES / 1024} KiB of headers.`,
        ),
        requestId,
      ),
    )
    socket.end(
      'HTTP/1.1 431 Request Header Fields Too Large\r\n' +
        'Content-Type: application/json\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    )
  })
}

/** How long a port in use is tried again: a server stopped or killed a moment ago may still hold it. */
const PORT_RETRY_MS = 10_000
/** Requests in flight when a stop is asked for get this long to finish; then their connections are closed. */
const REQUEST_GRACE_MS = 5_000
/**
 * A stop taking longer ends the process as a crash would (the next start resolves the publishes it
 * left in flight), well before a start waiting for it gives up (30 s, `lockDataDir`).
 */
const SHUTDOWN_LIMIT_MS = 20_000

/** Stops listening at once, lets the requests in flight finish (up to REQUEST_GRACE_MS), and resolves once all are done. */
function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    const cut = setTimeout(() => server.closeAllConnections(), REQUEST_GRACE_MS)
    server.close(() => {
      clearTimeout(cut)
      resolve()
    })
    server.closeIdleConnections()
  })
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
 * Liveness (docs/architecture.md, "Several servers"): every INSTANCE_HEARTBEAT_SEC this boot beats
 * (with the rows of the dead boots it is resolving), and, in a loop of its own so that a long
 * resolution never delays a beat, takes over the work of boots that stopped beating. At the same
 * pace, once the database answers again after it went away, the deliveries this boot gave up
 * meanwhile (`stranded`) are resolved as a restart would resolve them, not left to their lease.
 */
function startLiveness(
  deps: Deps,
  liveness: Liveness,
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

/** `npm start`: the API on Node with embedded defaults (PGlite, in-memory rate limits, in-process jobs). */
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
  // The node-server bindings (the socket) go on to the app: the client address is read from them.
  const server = createAdaptorServer({
    fetch: async (req, env) => (await app)(req, env),
    hostname: config.HOST,
    serverOptions: { maxHeaderSize: MAX_HEADER_BYTES },
  }) as Server
  answerOversizedHeaders(server)
  await listenWithRetry(server, {
    port: config.PORT,
    host: config.HOST,
    retryMs: PORT_RETRY_MS,
    onRetry: (message) => console.error(message),
  })
  const base = baseUrl(server.address() as AddressInfo)
  const listenedAt = performance.now()
  const database = openNodeDatabase(config)
  // Awaited by openNodeRuntime; a failure meanwhile is not an unhandled rejection.
  database.catch(() => {})
  const {
    appOptions,
    createApp,
    nodeClientIp,
    openNodeRuntime,
    bootstrapDemoWorkspace,
    resolveOrphanedClaims,
    requeuePendingTargets,
    registerInstance,
    beat,
    resolveDeadInstances,
    resolveStrandedDeliveries,
    retire,
    runScheduledJobs,
    sweepWebhooks,
  } = await loadApp()
  const loadedAt = performance.now()
  const runtime = await openNodeRuntime(config, { listeningAt: base, database })
  const openedAt = performance.now()
  const demo = await bootstrapDemoWorkspace(runtime.deps)
  const demoAt = performance.now()
  const admission = runtime.admission
  ready(createApp({ ...appOptions(runtime.deps, nodeClientIp(config.TRUST_PROXY)), admission }).fetch)
  const bootMs = Math.round(performance.now() - startedAt)
  // Where the start went (performance.now() counts from the process's start: loading the modules comes first).
  const ms = (a: number, b: number) => Math.round(b - a)
  runtime.deps.logger.info('boot', {
    modulesMs: Math.round(startedAt),
    listenMs: ms(startedAt, listenedAt),
    appModulesMs: ms(listenedAt, loadedAt),
    runtimeMs: ms(loadedAt, openedAt),
    demoMs: ms(openedAt, demoAt),
    appMs: ms(demoAt, performance.now()),
  })
  // The app answers from here on; the local store's back end loads now (a failure still stops the start).
  await runtime.warmUp()
  // One write: whoever reads the output (a terminal, a supervisor, a test) gets the banner whole.
  const banner = [
    `Social Publishing API on ${base} (database: ${runtime.database}, boot ${bootMs} ms)`,
    `  API reference: ${base}/docs`,
    `  Media store: ${runtime.mediaStore} (uploads PUT here; objects are served from here)`,
    `  Rate limits: ${runtime.rateLimits}`,
  ]
  if (demo) {
    banner.push(
      `\nDemo workspace ${demo.workspaceId} with ${demo.accounts} SANDBOX accounts. Its token, shown only this once:\n`,
      `  ${demo.token}\n`,
      `  curl -H "Authorization: Bearer ${demo.token}" ${base}/v1/me\n`,
      `Dashboard: ${base}/app/sign-in as ${demo.user.email} with the password (shown only this once):\n`,
      `  ${demo.user.password}\n`,
    )
  }
  console.log(banner.join('\n'))
  // This boot says it is alive before it takes any work (another server starting now leaves its work
  // alone). The in-process queue starts empty: hand it every pending publish no live server holds;
  // claims an earlier boot left in flight (a crash) are resolved now rather than when their lease
  // runs out; then beat every few seconds (taking over dead servers' work) and sweep every minute.
  await registerInstance(runtime.deps)
  const requeued = await requeuePendingTargets(runtime.deps, liveness)
  if (requeued > 0) runtime.deps.logger.info('publishes_requeued', { count: requeued })
  const orphans = await resolveOrphanedClaims(runtime.deps, { everyHolder: runtime.database === 'pglite' })
  if (orphans.released + orphans.confirmed + orphans.unconfirmed > 0)
    runtime.deps.logger.info('orphaned_claims_resolved', { ...orphans })
  // Webhook attempts that were due when an earlier boot stopped go out now, not a minute from now.
  void sweepWebhooks(runtime.deps).then(
    (report) => report.attempted > 0 && runtime.deps.logger.info('webhook_sweep', { ...report }),
    (err: unknown) => runtime.deps.logger.error('webhook_sweep_failed', describeError(err)),
  )
  // PGlite is this process's alone: no other server to beat for, none to take over from.
  const stopHeartbeat =
    runtime.database === 'pglite'
      ? async () => {}
      : startLiveness(
          runtime.deps,
          liveness,
          { beat, resolveDeadInstances, resolveStrandedDeliveries },
          runtime.stranded,
        )
  const timer = setInterval(() => void runScheduledJobs(runtime.deps), 60_000)
  timer.unref()
  const stopInboxSync = startInboxSyncTimer(runtime.deps)

  // A stop: the locks say so at once (a start meanwhile waits for this process), the port is let go,
  // the requests and publishes in flight finish, this boot's row says it is gone (another server takes
  // over the deliveries its queue held for later), then the database closes and the locks go.
  const shutdown = () => {
    clearInterval(timer)
    stopInboxSync()
    runtime.stopping()
    setTimeout(() => {
      runtime.deps.logger.error('shutdown_timeout', { limitMs: SHUTDOWN_LIMIT_MS })
      process.exit(1)
    }, SHUTDOWN_LIMIT_MS).unref()
    void closeServer(server)
      .then(() => Promise.all([stopHeartbeat(), runtime.publishQueue.close()]))
      .then(() => retire(runtime.deps))
      .catch((err: unknown) => runtime.deps.logger.error('retire_failed', describeError(err)))
      .then(() => runtime.close())
      .finally(() => process.exit(0))
  }
  process.once('SIGINT', shutdown)
  process.once('SIGTERM', shutdown)
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
