import { Client } from '@upstash/qstash'
import { Redis } from '@upstash/redis/cloudflare'
import { networkClients, networkOrigins, parseWorkerConfig } from '../config'
import { openNeon } from '../db/neon'
import type { Deps } from '../deps'
import { systemClock } from '../infra/clock'
import { createCredentialCipher } from '../infra/credential-cipher'
import { createLogger } from '../infra/logger'
import { createQStashPublishQueue, createQStashVerifier, publishCallbackUrl } from '../infra/publish-queue/qstash'
import { createUpstashRateLimiter } from '../infra/ratelimit/upstash'
import { createS3Storage } from '../infra/storage/s3'
import { workerImageCodecs } from '../media/codecs-worker'
import { workerClientIp } from './client-ip'
import { buildNetworkRegistry } from './networks'

/**
 * Deps of one Worker invocation. A Neon pool's WebSocket cannot outlive the request that opened
 * it, so each invocation opens its own and closes it when done (`close`, via waitUntil).
 */
export async function buildWorkerDeps(env: Record<string, unknown>): Promise<{ deps: Deps; close(): Promise<void> }> {
  const config = parseWorkerConfig(env)
  const logger = createLogger(config.LOG_LEVEL)
  const conn = openNeon({ url: config.DATABASE_URL, wsProxy: config.NEON_WS_PROXY, max: 4 })
  const redis = new Redis({ url: config.UPSTASH_REDIS_REST_URL, token: config.UPSTASH_REDIS_REST_TOKEN })
  const settings = {
    maxBodyBytes: config.MAX_BODY_BYTES,
    publicUrl: config.PUBLIC_URL ?? null,
    networkOrigins: networkOrigins(config),
    networkClients: networkClients(config),
  }
  const deps: Deps = {
    settings,
    db: conn.db,
    rateLimiter: createUpstashRateLimiter(redis, { onError: () => logger.warn('rate_limiter_unavailable') }),
    clientIp: workerClientIp,
    cipher: await createCredentialCipher(config.CREDENTIALS_KEY),
    logger,
    clock: systemClock(),
    storage: createS3Storage({
      endpoint: config.S3_ENDPOINT,
      region: config.S3_REGION,
      bucket: config.S3_BUCKET,
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
      publicBaseUrl: config.MEDIA_PUBLIC_URL,
    }),
    imageCodecs: workerImageCodecs(),
    // Dev mode off: it would replace QSTASH_URL/QSTASH_TOKEN with a local binary's (stack-notes §5).
    publishQueue: createQStashPublishQueue({
      client: new Client({ baseUrl: config.QSTASH_URL, token: config.QSTASH_TOKEN, devMode: false }),
      callbackUrl: publishCallbackUrl(config.PUBLIC_URL),
    }),
    deliveryVerifier: createQStashVerifier({
      currentSigningKey: config.QSTASH_CURRENT_SIGNING_KEY,
      nextSigningKey: config.QSTASH_NEXT_SIGNING_KEY,
    }),
    networks: buildNetworkRegistry(conn.db, settings),
  }
  return { deps, close: conn.close }
}
