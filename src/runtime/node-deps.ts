import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Redis } from '@upstash/redis'
import ws from 'ws'
import { ConfigError, networkOrigins, type NodeConfig } from '../config'
import { applyMigrations } from '../db/migrate'
import { openNeon } from '../db/neon'
import { openPglite } from '../db/pglite'
import type { Db } from '../db/types'
import type { Deps } from '../deps'
import { systemClock } from '../infra/clock'
import { createCredentialCipher, generateCredentialsKey } from '../infra/credential-cipher'
import { createLogger, type Logger } from '../infra/logger'
import { createInProcessPublishQueue } from '../infra/publish-queue/in-process'
import { createMemoryRateLimiter } from '../infra/ratelimit/memory'
import { createUpstashRateLimiter } from '../infra/ratelimit/upstash'
import { LOCAL_S3_CREDENTIALS, startLocalS3 } from '../infra/storage/local-s3'
import { createS3Storage } from '../infra/storage/s3'
import type { ObjectStorage } from '../infra/storage/types'
import { nodeImageCodecs } from '../media/codecs-node'
import { publishTarget } from '../services/publishing/publish-target'
import { nodeClientIp } from './client-ip'
import { buildNetworkRegistry } from './networks'
import { lockDataDir } from './data-dir-lock'

export interface NodeRuntime {
  deps: Deps
  /** Which database the process runs on, for the start-up line. */
  database: 'pglite' | 'postgres'
  /** Where media go, for the start-up line: the local store's address, or the S3 endpoint. */
  mediaStore: string
  close(): Promise<void>
}

/**
 * Media storage of the Node runtime: the S3-compatible store of S3_ENDPOINT, else a local store
 * (s3rver) under DATA_DIR/s3 on LOCAL_S3_PORT, serving its objects itself. The same S3 code either way.
 */
export async function openNodeStorage(config: NodeConfig): Promise<{ storage: ObjectStorage; description: string; close(): Promise<void> }> {
  if (config.S3_ENDPOINT) {
    const missing = (['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'MEDIA_PUBLIC_URL'] as const).filter((k) => !config[k])
    if (missing.length > 0) throw new ConfigError(missing.map((k) => `${k}: is required with S3_ENDPOINT`))
    const storage = createS3Storage({
      endpoint: config.S3_ENDPOINT,
      region: config.S3_REGION,
      bucket: config.S3_BUCKET,
      accessKeyId: config.S3_ACCESS_KEY_ID!,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY!,
      publicBaseUrl: config.MEDIA_PUBLIC_URL!,
    })
    return { storage, description: config.S3_ENDPOINT, close: async () => {} }
  }
  const port = config.LOCAL_S3_PORT ?? (config.PORT === 0 ? 0 : config.PORT + 1)
  const local = await startLocalS3({ directory: join(config.DATA_DIR, 's3'), bucket: config.S3_BUCKET, host: config.HOST, port })
  const storage = createS3Storage({
    endpoint: local.endpoint,
    region: 'us-east-1',
    bucket: local.bucket,
    ...LOCAL_S3_CREDENTIALS,
    publicBaseUrl: config.MEDIA_PUBLIC_URL ?? `${local.endpoint}/${local.bucket}`,
  })
  return { storage, description: `${local.endpoint}/${local.bucket}`, close: local.close }
}

/** The database of the Node runtime: DATABASE_URL through the Neon driver, else PGlite under DATA_DIR. Migrated. */
export async function openNodeDatabase(config: NodeConfig): Promise<{ db: Db; database: NodeRuntime['database']; close(): Promise<void> }> {
  if (config.DATABASE_URL) {
    const conn = openNeon({ url: config.DATABASE_URL, wsProxy: config.NEON_WS_PROXY, webSocket: ws })
    await applyMigrations(conn.db, 'neon')
    return { db: conn.db, database: 'postgres', close: conn.close }
  }
  const dir = join(config.DATA_DIR, 'pg')
  mkdirSync(dir, { recursive: true })
  const unlock = lockDataDir(dir)
  try {
    const conn = await openPglite({ dataDir: dir })
    await applyMigrations(conn.db, 'pglite')
    return { db: conn.db, database: 'pglite', close: () => conn.close().finally(unlock) }
  } catch (err) {
    unlock()
    throw err
  }
}

/**
 * CREDENTIALS_KEY, or for the embedded default a key generated once and kept (mode 600) under
 * DATA_DIR, so `npm start` needs no configuration and credentials survive restarts.
 */
export function resolveCredentialsKey(config: NodeConfig, logger: Logger): string {
  if (config.CREDENTIALS_KEY) return config.CREDENTIALS_KEY
  const file = join(config.DATA_DIR, 'credentials.key')
  if (existsSync(file)) return readFileSync(file, 'utf8').trim()
  mkdirSync(config.DATA_DIR, { recursive: true })
  writeFileSync(file, generateCredentialsKey() + '\n', { mode: 0o600 })
  chmodSync(file, 0o600)
  logger.warn('credentials_key_generated', { file, hint: 'set CREDENTIALS_KEY in production' })
  return readFileSync(file, 'utf8').trim()
}

export async function buildNodeDeps(config: NodeConfig): Promise<NodeRuntime> {
  const logger = createLogger(config.LOG_LEVEL)
  const database = await openNodeDatabase(config)
  let media: Awaited<ReturnType<typeof openNodeStorage>>
  try {
    media = await openNodeStorage(config)
  } catch (err) {
    await database.close()
    throw err
  }
  const rateLimiter =
    config.UPSTASH_REDIS_REST_URL && config.UPSTASH_REDIS_REST_TOKEN
      ? createUpstashRateLimiter(new Redis({ url: config.UPSTASH_REDIS_REST_URL, token: config.UPSTASH_REDIS_REST_TOKEN }), {
          onError: () => logger.warn('rate_limiter_unavailable'),
        })
      : createMemoryRateLimiter()
  // Deliveries run later, from the queue's timer, when `deps` below exists.
  const publishQueue = createInProcessPublishQueue({ run: (d) => publishTarget(deps, d), concurrency: config.PUBLISH_CONCURRENCY, logger })
  const settings = { maxBodyBytes: config.MAX_BODY_BYTES, publicUrl: config.PUBLIC_URL ?? null, networkOrigins: networkOrigins(config) }
  const deps: Deps = {
    settings,
    db: database.db,
    rateLimiter,
    clientIp: nodeClientIp(config.TRUST_PROXY),
    cipher: await createCredentialCipher(resolveCredentialsKey(config, logger)),
    logger,
    clock: systemClock(),
    storage: media.storage,
    imageCodecs: nodeImageCodecs(),
    publishQueue,
    networks: buildNetworkRegistry(database.db, settings),
  }
  // The queue first: its runs in flight still need the database.
  const close = () => publishQueue.close().finally(() => media.close().finally(database.close))
  return { deps, database: database.database, mediaStore: media.description, close }
}
