/**
 * The Node server's runtime (`npm start`, and the benchmarks): its database, media store, rate
 * limiter, mailer and in-process delivery queues, and the deps built from them. The clients are
 * chosen in their own modules: node-database.ts, node-storage.ts, node-rate-limiter.ts,
 * node-queues.ts; the CLI's runtime is cli-deps.ts.
 */
import type { NodeConfig } from '../config'
import type { Deps } from '../deps'
import { createAdmission, createLoopLagMeter, type Admission } from '../infra/admission'
import { systemClock } from '../infra/clock'
import { createCredentialCipher } from '../infra/credential-cipher'
import { createLogger } from '../infra/logger'
import { createSmtpMailer } from '../infra/mailer/nodemailer'
import type { Mailer } from '../infra/mailer/types'
import type { InProcessPublishQueue } from '../infra/publish-queue/in-process'
import type { RateLimiter } from '../infra/ratelimit/types'
import { nodeImageCodecs } from '../media/codecs-node'
import type { NetworkRegistry } from '../networks/registry'
import type { StrandedDeliveries } from '../services/publishing/stranded'
import { buildDeps } from './build-deps'
import { claimLeaseHolder } from './lease-holder'
import { openNodeDatabase, resolveCredentialsKey, type NodeDatabase } from './node-database'
import { nodeDocsAssets } from './node-docs-assets'
import { inProcessQueue, inProcessWebhooks } from './node-queues'
import { openNodeRateLimiter } from './node-rate-limiter'
import { nodeResolveHost, nodeSettings } from './node-settings'
import { nodeOpenSocket } from './node-socket'
import { openNodeStorage } from './node-storage'

export interface NodeRuntime {
  deps: Deps
  /** Which database the process runs on, for the start-up line. */
  database: NodeDatabase['database']
  /** Where media go, for the start-up line: the local store's address, or the S3 endpoint. */
  mediaStore: string
  /** Turns for the API's requests on PGlite (none on PostgreSQL, or with REQUESTS_IN_FLIGHT_MAX=0). */
  admission: Admission | undefined
  /** Where rate limits are counted, for the start-up line: `memory`, `redis://host:port` or `upstash host`. */
  rateLimits: string
  /** The in-process delivery queue (how many publishes wait and run). */
  publishQueue: InProcessPublishQueue
  /** The queue's deliveries whose run failed as the database went away, resolved once it answers again. */
  stranded: StrandedDeliveries
  /** Starts what the first request does not need but later ones may (the local store's s3rver). */
  warmUp(): Promise<void>
  /** Says in DATA_DIR's locks that this server is stopping: a start meanwhile waits for it rather than refusing. */
  stopping(): void
  close(): Promise<void>
}

/**
 * The Node runtime: its database, media store, rate limiter and in-process delivery queue, and
 * the deps built from them. `publicUrl` is PUBLIC_URL, else where the server listens (sandbox
 * permalinks point there); benchmarks may bring their own rate limiter.
 */
export async function openNodeRuntime(
  config: NodeConfig,
  options: {
    listeningAt?: string
    rateLimiter?: RateLimiter
    networks?: NetworkRegistry
    /** The database, already being opened by the caller (npm start opens it while the app's modules load). */
    database?: Promise<NodeDatabase>
  } = {},
): Promise<NodeRuntime> {
  const logger = createLogger(config.LOG_LEVEL)
  let lease: Awaited<ReturnType<typeof claimLeaseHolder>>
  try {
    lease = await claimLeaseHolder(config.DATA_DIR)
  } catch (err) {
    // The database the caller is opening is not going to be used.
    await options.database?.then((opened) => opened.close()).catch(() => {})
    throw err
  }
  let database: NodeDatabase
  let media: Awaited<ReturnType<typeof openNodeStorage>>
  try {
    database = await (options.database ?? openNodeDatabase(config))
  } catch (err) {
    lease.release()
    throw err
  }
  try {
    media = await openNodeStorage(config)
  } catch (err) {
    await database.close().finally(lease.release)
    throw err
  }
  const limits = options.rateLimiter
    ? { limiter: options.rateLimiter, description: 'given', close: async () => {} }
    : await openNodeRateLimiter(config, logger)
  // One clock for the deps and the queues, so a delivery is due by the same time the engine computed it with.
  const clock = systemClock()
  const queue = inProcessQueue(config, { logger, clock })
  const webhooks = inProcessWebhooks({ logger, clock })
  const deps = buildDeps(
    {
      settings: {
        ...nodeSettings(config),
        publicUrl: config.PUBLIC_URL ?? options.listeningAt ?? null,
        leaseHolder: lease.holder,
      },
      db: database.db,
      rateLimiter: limits.limiter,
      cipher: await createCredentialCipher(resolveCredentialsKey(config, logger)),
      logger,
      storage: media.storage,
      imageCodecs: nodeImageCodecs(),
      docsAssets: nodeDocsAssets(),
      publishQueue: queue.bind,
      webhookQueue: webhooks.bind,
      resolveHost: nodeResolveHost,
      openSocket: nodeOpenSocket,
      mailer: nodeMailer(config),
    },
    { clock, ...(options.networks ? { networks: options.networks } : {}) },
  )
  // The queues first: their runs in flight still need the database.
  const close = () =>
    Promise.all([queue.queue.close(), webhooks.queue.close()])
      .then(() => deps.mailer?.close())
      .finally(() =>
        Promise.all([limits.close(), media.close()]).finally(() => database.close().finally(lease.release)),
      )
  return {
    deps,
    database: database.database,
    mediaStore: media.description,
    admission: pgliteAdmission(config, database.database),
    rateLimits: limits.description,
    publishQueue: queue.queue,
    stranded: queue.stranded,
    warmUp: media.start,
    stopping: () => {
      database.stopping()
      lease.stopping()
    },
    close,
  }
}

/** PGlite runs its statements on this thread: past what it takes, requests are refused rather than queued. */
const pgliteAdmission = (config: NodeConfig, database: NodeDatabase['database']) =>
  database === 'pglite' && config.REQUESTS_IN_FLIGHT_MAX > 0
    ? createAdmission({
        maxInFlight: config.REQUESTS_IN_FLIGHT_MAX,
        maxWaitMs: config.REQUEST_WAIT_MAX_MS,
        loopLag: createLoopLagMeter().lagMs,
      })
    : undefined

/** The notifications' mailer: SMTP_URL through nodemailer, or none. */
export function nodeMailer(config: NodeConfig): Mailer | null {
  return config.SMTP_URL ? createSmtpMailer({ url: config.SMTP_URL, from: config.MAIL_FROM }) : null
}
