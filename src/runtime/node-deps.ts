import { lookup } from 'node:dns/promises'
import { nodeOpenSocket } from './node-socket'
import { join } from 'node:path'
import { ConfigError, networkClients, networkOrigins, type NodeConfig } from '../config'
import type { AppSettings, Deps } from '../deps'
import { createAdmission, createLoopLagMeter, type Admission } from '../infra/admission'
import { systemClock, type Clock } from '../infra/clock'
import { createCredentialCipher } from '../infra/credential-cipher'
import { createLogger, type Logger } from '../infra/logger'
import { createInProcessPublishQueue, type InProcessPublishQueue } from '../infra/publish-queue/in-process'
import { createMemoryRateLimiter } from '../infra/ratelimit/memory'
import { LOCAL_S3_ACCESS_KEY_ID, resolveLocalS3Secret, startLocalS3 } from '../infra/storage/local-s3'
import { createS3Storage } from '../infra/storage/s3'
import type { Delivery } from '../infra/publish-queue/types'
import type { RateLimiter } from '../infra/ratelimit/types'
import { openNodeRateLimiter } from './node-rate-limiter'
import { createInProcessWebhookQueue } from '../infra/webhook-queue/in-process'
import type { ResolveHost } from '../networks/outbound'
import type { NetworkRegistry } from '../networks/registry'
import type { ObjectStorage } from '../infra/storage/types'
import { nodeImageCodecs } from '../media/codecs-node'
import { nodeDocsAssets } from './node-docs-assets'
import { buildDeps } from './build-deps'
import { createSmtpMailer } from '../infra/mailer/nodemailer'
import type { Mailer } from '../infra/mailer/types'
import { type StrandedDeliveries, strandedDeliveries, watchedRuns } from '../services/publishing/stranded'
import type { WebhookDeliverer } from '../services/webhooks/deliver'
import { claimLeaseHolder } from './lease-holder'
import { openNodeDatabase, resolveCredentialsKey, type NodeDatabase } from './node-database'

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
 * Media storage of the Node runtime: the S3-compatible store of S3_ENDPOINT, else a local store
 * (s3rver) under DATA_DIR/s3 on LOCAL_S3_PORT, serving its objects itself and accepting only writes
 * signed with the secret in DATA_DIR/local-s3.key. The same S3 code either way.
 */
export async function openNodeStorage(
  config: NodeConfig,
  options: { serve: boolean } = { serve: true },
): Promise<{ storage: ObjectStorage; description: string; start(): Promise<void>; close(): Promise<void> }> {
  if (config.S3_ENDPOINT) {
    const missing = (['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'MEDIA_PUBLIC_URL'] as const).filter(
      (k) => !config[k],
    )
    if (missing.length > 0) throw new ConfigError(missing.map((k) => `${k}: is required with S3_ENDPOINT`))
    const storage = createS3Storage({
      endpoint: config.S3_ENDPOINT,
      region: config.S3_REGION,
      bucket: config.S3_BUCKET,
      accessKeyId: config.S3_ACCESS_KEY_ID!,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY!,
      publicBaseUrl: config.MEDIA_PUBLIC_URL!,
    })
    return { storage, description: config.S3_ENDPOINT, start: async () => {}, close: async () => {} }
  }
  const port = config.LOCAL_S3_PORT ?? (config.PORT === 0 ? 0 : config.PORT + 1)
  if (!options.serve) {
    // Another process (npm start) serves the local store: talk to it where it listens.
    const endpoint = `http://${config.HOST}:${port}`
    return {
      storage: localStoreClient(config, endpoint, config.S3_BUCKET),
      description: endpoint,
      start: async () => {},
      close: async () => {},
    }
  }
  const local = await startLocalS3({
    directory: join(config.DATA_DIR, 's3'),
    bucket: config.S3_BUCKET,
    host: config.HOST,
    port,
    secretAccessKey: resolveLocalS3Secret(config.DATA_DIR),
  })
  return {
    storage: localStoreClient(config, local.endpoint, local.bucket),
    description: `${local.endpoint}/${local.bucket}`,
    start: local.start,
    close: local.close,
  }
}

function localStoreClient(config: NodeConfig, endpoint: string, bucket: string): ObjectStorage {
  return createS3Storage({
    endpoint,
    region: 'us-east-1',
    bucket,
    // The secret of DATA_DIR: the local store refuses writes not signed with it.
    accessKeyId: LOCAL_S3_ACCESS_KEY_ID,
    secretAccessKey: resolveLocalS3Secret(config.DATA_DIR),
    publicBaseUrl: config.MEDIA_PUBLIC_URL ?? `${endpoint}/${bucket}`,
  })
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

/**
 * Node's in-process delivery queue, bound to the engine's publish functions once the deps exist:
 * due deliveries are claimed in batches of PUBLISH_CLAIM_BATCH (1: one claim per delivery).
 */
function inProcessQueue(config: NodeConfig, { logger, clock }: { logger: Logger; clock: Clock }) {
  type Publish = (delivery: Delivery) => Promise<unknown>
  type PublishBatch = (deliveries: Delivery[]) => Array<Promise<unknown>>
  let publish: Publish = async () => {
    throw new Error('the publish queue ran before the deps were built')
  }
  let publishBatch: PublishBatch = (deliveries) => deliveries.map((d) => publish(d))
  const batched = config.PUBLISH_CLAIM_BATCH > 1
  const queue = createInProcessPublishQueue({
    run: (d) => publish(d),
    ...(batched ? { runBatch: (ds: Delivery[]) => publishBatch(ds), batchSize: config.PUBLISH_CLAIM_BATCH } : {}),
    concurrency: config.PUBLISH_CONCURRENCY,
    logger,
    clock,
  })
  // Each delivery that fails as the database goes away is noted, to be resolved once it answers again.
  const stranded = strandedDeliveries()
  const bind = (run: Publish, runBatch: PublishBatch) => {
    const watched = watchedRuns(stranded, run, runBatch)
    publish = watched.run
    publishBatch = watched.runBatch
    return queue
  }
  return { queue, bind, stranded }
}

/** Node's in-process webhook queue, bound to the delivery worker once the deps exist: due attempts claimed in batches. */
function inProcessWebhooks({ logger, clock }: { logger: Logger; clock: Clock }) {
  let deliver: WebhookDeliverer['deliver'] = () => {
    throw new Error('the webhook queue ran before the deps were built')
  }
  const queue = createInProcessWebhookQueue({
    run: (id) => deliver([id])[0]!,
    runBatch: (ids) => deliver(ids),
    logger,
    clock,
  })
  const bind = (run: typeof deliver) => {
    deliver = run
    return queue
  }
  return { queue, bind }
}

/** The settings of the Node runtime, from its configuration. */
/** The notifications' mailer: SMTP_URL through nodemailer, or none. */
export function nodeMailer(config: NodeConfig): Mailer | null {
  return config.SMTP_URL ? createSmtpMailer({ url: config.SMTP_URL, from: config.MAIL_FROM }) : null
}

export function nodeSettings(config: NodeConfig): AppSettings {
  return {
    maxBodyBytes: config.MAX_BODY_BYTES,
    inboxSync: { intervalSec: config.INBOX_SYNC_INTERVAL_SEC, sandboxIntervalSec: config.SANDBOX_SYNC_INTERVAL_SEC },
    publicUrl: config.PUBLIC_URL ?? null,
    networkOrigins: networkOrigins(config),
    networkClients: networkClients(config),
    allowPrivateUrls: config.ALLOW_PRIVATE_URLS,
    corsOrigins: config.CORS_ORIGINS,
    connectRedirectOrigins: config.CONNECT_REDIRECT_ORIGINS,
  }
}

/** Every address of a name (IPv4 and IPv6), for the outbound guard's check after DNS. */
export const nodeResolveHost: ResolveHost = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address)

/**
 * The CLI's deps: the server's database, credentials key, network settings and media store,
 * without serving anything itself (no local store, no listener).
 */
export async function openCliRuntime(
  config: NodeConfig,
): Promise<{ deps: Deps; migrationsApplied: string[]; close(): Promise<void> }> {
  const quietLine = (line: string) => console.error(line)
  const logger = createLogger('warn', quietLine)
  const database = await openNodeDatabase(config)
  try {
    const media = await openNodeStorage(config, { serve: false })
    const clock = systemClock()
    const queue = inProcessQueue(config, { logger, clock })
    const deps = buildDeps(
      {
        settings: nodeSettings(config),
        db: database.db,
        rateLimiter: createMemoryRateLimiter(),
        // A generated key is the server's business to announce; the CLI stays quiet about it.
        cipher: await createCredentialCipher(resolveCredentialsKey(config, createLogger('error', quietLine))),
        logger,
        storage: media.storage,
        imageCodecs: nodeImageCodecs(),
        docsAssets: nodeDocsAssets(),
        publishQueue: queue.bind,
        resolveHost: nodeResolveHost,
        openSocket: nodeOpenSocket,
      },
      { clock },
    )
    return {
      deps,
      migrationsApplied: database.migrationsApplied,
      close: () => queue.queue.close().finally(database.close),
    }
  } catch (err) {
    await database.close()
    throw err
  }
}
