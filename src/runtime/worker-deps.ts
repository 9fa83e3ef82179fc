import { Client } from '@upstash/qstash'
import type { SocketLike } from '../networks/sockets'
import { Redis } from '@upstash/redis/cloudflare'
import { networkClients, networkOrigins, parseWorkerConfig, type WorkerConfig } from '../config'
import { openNeon } from '../db/neon'
import type { Deps } from '../deps'
import { createStrengthEstimator } from '../domain/password-strength'
import { createCredentialCipher } from '../infra/credential-cipher'
import { createLogger } from '../infra/logger'
import { createQStashPublishQueue, createQStashVerifier, publishCallbackUrl } from '../infra/publish-queue/qstash'
import { createQStashWebhookQueue } from '../infra/webhook-queue/qstash'
import { createQStashSyncQueue } from '../infra/sync-queue/qstash'
import { inboxSyncCallbackUrl, webhookCallbackUrl } from '../domain/delivery-callbacks'
import { createUpstashRateLimiter } from '../infra/ratelimit/upstash'
import { createS3Storage } from '../infra/storage/s3'
import { workerImageCodecs } from '../media/codecs-worker'
import { workerDocsAssets } from './worker-docs-assets'
import { buildDeps, type DepsParts } from './build-deps'

/** What one Worker isolate keeps between requests: every client but the database's. */
export interface WorkerIsolate {
  config: WorkerConfig
  parts: Omit<DepsParts, 'db'>
  /** The deps of one invocation, over its own database pool; `close` ends the pool. */
  open(): { deps: Deps; close(): Promise<void> }
}

/**
 * Made once per isolate (the first request or cron run): configuration, cipher, rate limiter,
 * storage, codecs and the delivery queue are stateless HTTP clients or immutable; the password
 * estimator keeps only the dictionaries it loads. A Neon pool's WebSocket cannot outlive the
 * request that opened it, so each invocation opens its own.
 */
export async function createWorkerIsolate(env: Record<string, unknown>): Promise<WorkerIsolate> {
  const config = parseWorkerConfig(env)
  const logger = createLogger(config.LOG_LEVEL)
  const redis = new Redis({ url: config.UPSTASH_REDIS_REST_URL, token: config.UPSTASH_REDIS_REST_TOKEN })
  const qstash = new Client({ baseUrl: config.QSTASH_URL, token: config.QSTASH_TOKEN, devMode: false })
  const parts: Omit<DepsParts, 'db'> = {
    settings: {
      maxBodyBytes: config.MAX_BODY_BYTES,
      inboxSync: { intervalSec: config.INBOX_SYNC_INTERVAL_SEC, sandboxIntervalSec: config.SANDBOX_SYNC_INTERVAL_SEC },
      publicUrl: config.PUBLIC_URL ?? null,
      networkOrigins: networkOrigins(config),
      networkClients: networkClients(config),
      allowPrivateUrls: config.ALLOW_PRIVATE_URLS,
      corsOrigins: config.CORS_ORIGINS,
      connectRedirectOrigins: config.CONNECT_REDIRECT_ORIGINS,
    },
    // The Worker's own WebSocket client for the relay network's sockets (networks/sockets.ts).
    openSocket: (url) => new WebSocket(url) as unknown as SocketLike,
    // No resolveHost: Workers have no DNS API. The outbound guard checks literals and names only,
    // and Cloudflare's fetch does not reach private networks (networks/outbound.ts, docs/decisions.md).
    rateLimiter: createUpstashRateLimiter(redis, { onError: () => logger.warn('rate_limiter_unavailable') }),
    cipher: await createCredentialCipher(config.CREDENTIALS_KEY),
    logger,
    storage: createS3Storage({
      endpoint: config.S3_ENDPOINT,
      region: config.S3_REGION,
      bucket: config.S3_BUCKET,
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
      publicBaseUrl: config.MEDIA_PUBLIC_URL,
    }),
    imageCodecs: workerImageCodecs(),
    docsAssets: workerDocsAssets(),
    // Its dictionaries load on the isolate's first password set, not on every request's.
    passwordStrength: createStrengthEstimator(),
    // Dev mode off: it would replace QSTASH_URL/QSTASH_TOKEN with those of a local binary.
    publishQueue: createQStashPublishQueue({ client: qstash, callbackUrl: publishCallbackUrl(config.PUBLIC_URL) }),
    // Webhook attempts through QStash too, to /internal/webhook-delivery (checked by the same verifier).
    webhookQueue: createQStashWebhookQueue({ client: qstash, callbackUrl: webhookCallbackUrl(config.PUBLIC_URL) }),
    // Inbox syncs too: the Cron pass hands each due account to /internal/inbox-sync.
    syncQueue: createQStashSyncQueue({ client: qstash, callbackUrl: inboxSyncCallbackUrl(config.PUBLIC_URL) }),
    deliveryVerifier: createQStashVerifier({
      currentSigningKey: config.QSTASH_CURRENT_SIGNING_KEY,
      nextSigningKey: config.QSTASH_NEXT_SIGNING_KEY,
    }),
  }
  return {
    config,
    parts,
    open() {
      const conn = openNeon({ url: config.DATABASE_URL, wsProxy: config.NEON_WS_PROXY, max: 4 })
      return { deps: buildDeps({ ...parts, db: conn.db }), close: conn.close }
    },
  }
}
