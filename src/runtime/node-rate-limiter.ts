import type { NodeConfig } from '../config'
import { describeError, type Logger } from '../infra/logger'
import { createMemoryRateLimiter } from '../infra/ratelimit/memory'
import type { RateLimiter } from '../infra/ratelimit/types'

export interface NodeRateLimiter {
  limiter: RateLimiter
  /** Where limits are counted, for the start-up line (no password). */
  description: string
  close(): Promise<void>
}

/** How long start-up waits for REDIS_URL's first connection before going on (and warning). */
const CONNECT_WAIT_MS = 3_000

/**
 * The Node runtime's rate limiter: REDIS_URL (rate-limiter-flexible over ioredis, shared by every
 * instance), else Upstash's REST API when configured, else limits kept in memory (one process).
 * The Redis and Upstash clients are loaded only when configured, never in the Worker bundle.
 */
export async function openNodeRateLimiter(config: NodeConfig, logger: Logger): Promise<NodeRateLimiter> {
  if (config.REDIS_URL) return openRedisRateLimiter(config.REDIS_URL, { prefix: config.REDIS_KEY_PREFIX, logger })
  const url = config.UPSTASH_REDIS_REST_URL
  const token = config.UPSTASH_REDIS_REST_TOKEN
  if (!url || !token) return { limiter: createMemoryRateLimiter(), description: 'memory', close: async () => {} }
  const [{ Redis }, { createUpstashRateLimiter }] = await Promise.all([
    import('@upstash/redis'),
    import('../infra/ratelimit/upstash'),
  ])
  return {
    limiter: createUpstashRateLimiter(new Redis({ url, token }), {
      onError: (error, { bucket }) => logger.warn('rate_limiter_unavailable', { bucket, ...describeError(error) }),
    }),
    description: `upstash ${new URL(url).host}`,
    close: async () => {},
  }
}

/** Longest wait for one Redis command: past it the check is decided without Redis (bounded, never hung). */
const COMMAND_TIMEOUT_MS = 1_000

/**
 * The ioredis client of REDIS_URL (TLS with `rediss://`): no offline queue and a command timeout,
 * so a check during an outage is answered at once (or within `COMMAND_TIMEOUT_MS`) by the bucket's
 * `whenUnavailable` policy: the API's buckets in this instance's memory, sign-in refused. It
 * reconnects by itself (every 2 s at most). One `rate_limiter_unavailable` line when an outage
 * starts, one `rate_limiter_recovered` when Redis answers again. Start-up waits a little for the
 * first connection, then goes on without it (warned).
 */
export async function openRedisRateLimiter(
  url: string,
  options: {
    prefix: string
    logger: Logger
    /** Instead of the `rate_limiter_unavailable` line (benchmarks throw, to notice an outage). */
    onError?: (error: unknown, context: { bucket: string }) => void
  },
): Promise<NodeRateLimiter> {
  const [{ Redis }, { createRedisRateLimiter }] = await Promise.all([
    import('ioredis'),
    import('../infra/ratelimit/redis'),
  ])
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: COMMAND_TIMEOUT_MS,
    connectTimeout: CONNECT_WAIT_MS,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
  })
  // ioredis prints unhandled 'error' events with their stack: say it once per outage instead.
  let reported = false
  redis.on('error', (error) => {
    if (!reported) options.logger.warn('redis_unreachable', describeError(error))
    reported = true
  })
  redis.on('ready', () => {
    reported = false
  })
  const connected = await Promise.race([
    redis.connect().then(
      () => true,
      () => false,
    ),
    new Promise<false>((resolve) => setTimeout(resolve, CONNECT_WAIT_MS, false).unref()),
  ])
  if (!connected) options.logger.warn('rate_limiter_unavailable', { reason: 'redis_not_connected_at_start' })
  const { hostname, port } = new URL(url)
  return {
    limiter: createRedisRateLimiter(redis, {
      prefix: options.prefix,
      timeoutMs: COMMAND_TIMEOUT_MS,
      onError:
        options.onError ??
        ((error, { bucket }) =>
          options.logger.warn('rate_limiter_unavailable', {
            bucket,
            fallback: 'memory for the API, sign-in refused',
            ...(error ? describeError(error) : {}),
          })),
      onRecovered: ({ outageMs, fallbackDecisions }) =>
        options.logger.warn('rate_limiter_recovered', {
          outageSec: Math.round(outageMs / 100) / 10,
          fallbackDecisions,
        }),
    }),
    description: `${new URL(url).protocol}//${hostname}:${port || 6379}`,
    close: async () => {
      redis.disconnect()
    },
  }
}
