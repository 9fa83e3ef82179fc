import { join } from 'node:path'
import { Redis } from '@upstash/redis'
import { ConfigError, networkClients, networkOrigins, type NodeConfig } from '../config'
import type { Deps } from '../deps'
import { systemClock } from '../infra/clock'
import { createCredentialCipher } from '../infra/credential-cipher'
import { createLogger } from '../infra/logger'
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
import { openNodeDatabase, resolveCredentialsKey, type NodeDatabase } from './node-database'

export interface NodeRuntime {
  deps: Deps
  /** Which database the process runs on, for the start-up line. */
  database: NodeDatabase['database']
  /** Where media go, for the start-up line: the local store's address, or the S3 endpoint. */
  mediaStore: string
  close(): Promise<void>
}

/**
 * Media storage of the Node runtime: the S3-compatible store of S3_ENDPOINT, else a local store
 * (s3rver) under DATA_DIR/s3 on LOCAL_S3_PORT, serving its objects itself. The same S3 code either way.
 */
export async function openNodeStorage(
  config: NodeConfig,
): Promise<{ storage: ObjectStorage; description: string; close(): Promise<void> }> {
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
    return { storage, description: config.S3_ENDPOINT, close: async () => {} }
  }
  const port = config.LOCAL_S3_PORT ?? (config.PORT === 0 ? 0 : config.PORT + 1)
  const local = await startLocalS3({
    directory: join(config.DATA_DIR, 's3'),
    bucket: config.S3_BUCKET,
    host: config.HOST,
    port,
  })
  const storage = createS3Storage({
    endpoint: local.endpoint,
    region: 'us-east-1',
    bucket: local.bucket,
    ...LOCAL_S3_CREDENTIALS,
    publicBaseUrl: config.MEDIA_PUBLIC_URL ?? `${local.endpoint}/${local.bucket}`,
  })
  return { storage, description: `${local.endpoint}/${local.bucket}`, close: local.close }
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
      ? createUpstashRateLimiter(
          new Redis({ url: config.UPSTASH_REDIS_REST_URL, token: config.UPSTASH_REDIS_REST_TOKEN }),
          {
            onError: () => logger.warn('rate_limiter_unavailable'),
          },
        )
      : createMemoryRateLimiter()
  // Deliveries run later, from the queue's timer, when `deps` below exists.
  const publishQueue = createInProcessPublishQueue({
    run: (d) => publishTarget(deps, d),
    concurrency: config.PUBLISH_CONCURRENCY,
    logger,
  })
  const settings = {
    maxBodyBytes: config.MAX_BODY_BYTES,
    publicUrl: config.PUBLIC_URL ?? null,
    networkOrigins: networkOrigins(config),
    networkClients: networkClients(config),
  }
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
