import type { Redis } from 'ioredis'
import { RateLimiterRedis, RateLimiterRes, RLWrapperTimeouts } from 'rate-limiter-flexible'
import {
  RATE_LIMIT_RULES,
  type RateLimitBucket,
  type RateLimitDecision,
  type RateLimitFailureContext,
  type RateLimiter,
  type RateLimitRule,
} from './types'
import { createMemoryRateLimiter } from './memory'
import { createOutageTracker } from './outage'
import { decisionWhenUnavailable } from './unavailable'

export interface RedisRateLimiterOptions {
  /** Prefix of every Redis key; the bucket name follows it. Defaults to `rl`. */
  prefix?: string
  /** Overrides of the spec's rules, bucket by bucket. */
  rules?: Partial<Record<RateLimitBucket, RateLimitRule>>
  /** Longest wait for Redis before the bucket's `whenUnavailable` decides. Defaults to 1000 ms, as on Upstash. */
  timeoutMs?: number
  /**
   * Called on the first check of an outage Redis cannot answer (not connected, error reply, timeout),
   * once until it answers again.
   */
  onError: (error: unknown, context: RateLimitFailureContext) => void
  /** Called on the first check Redis answers after an outage. */
  onRecovered?: (outage: { outageMs: number; fallbackDecisions: number }) => void
}

const DEFAULT_PREFIX = 'rl'
const DEFAULT_TIMEOUT_MS = 1000

/**
 * @upstash/ratelimit's single-region `slidingWindow`, as rate-limiter-flexible's increment script
 * (its `customIncrTtlLuaScript`): one hash per client and bucket holds its latest fixed window's
 * index and count and the count of the window before it, like the memory limiter's record.
 *
 * - windows are fixed, aligned to the epoch, on Redis's clock (`TIME`), so every instance agrees;
 * - the previous window counts with weight (1 - elapsed fraction of the current one), floored;
 * - a request is refused when weightedPrevious + current >= limit, and a refusal is not counted.
 *
 * It answers what rate-limiter-flexible expects, `{consumed, msBeforeNext}`: consumed = current +
 * weightedPrevious (so the library's `remainingPoints` is the algorithm's `remaining`), or
 * limit + 1 for a refusal (so the library rejects it); msBeforeNext = time to the window's end.
 * ARGV: points to add, the window in seconds (unused), the limit, the window in seconds.
 */
export const SLIDING_WINDOW_SCRIPT = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local limit = tonumber(ARGV[3])
local windowMs = tonumber(ARGV[4]) * 1000
local index = math.floor(now / windowMs)
local stored = redis.call('HMGET', KEYS[1], 'w', 'c', 'p')
local current, previous = 0, 0
if tonumber(stored[1]) == index then
  current = tonumber(stored[2]) or 0
  previous = tonumber(stored[3]) or 0
elseif tonumber(stored[1]) == index - 1 then
  previous = tonumber(stored[2]) or 0
end
local weighted = math.floor((1 - (now % windowMs) / windowMs) * previous)
local resetIn = (index + 1) * windowMs - now
if weighted + current >= limit then
  return {limit + 1, resetIn}
end
current = current + tonumber(ARGV[1])
redis.call('HSET', KEYS[1], 'w', index, 'c', current, 'p', previous)
redis.call('PEXPIREAT', KEYS[1], (index + 2) * windowMs)
return {current + weighted, resetIn}
`

/**
 * Node's shared limiter (REDIS_URL): rate-limiter-flexible's `RateLimiterRedis` over the caller's
 * ioredis client, one per bucket, running Upstash's sliding window (`SLIDING_WINDOW_SCRIPT`), so
 * its decisions are those of the Upstash and memory limiters. Keys are `<prefix>:<bucket>:<clientKey>`.
 * One check is one EVALSHA (ioredis sends the script itself on NOSCRIPT).
 *
 * Failure policy: when Redis is not connected, errors or is slower than `timeoutMs`, the bucket's
 * `whenUnavailable` decides: the API's buckets count in this instance's own memory (the memory
 * limiter, the same rules: limits hold per instance rather than not at all), the sign-in buckets
 * refuse (unavailable.ts). `onError` is called once per outage, `onRecovered` once when Redis answers
 * again; `status()` says which (`GET /health`). While the client is not connected, checks do not
 * wait for it; once it is, the next check goes to Redis again. `check` never rejects because of
 * Redis. The client should be made with `enableOfflineQueue: false`, so that a check during an
 * outage fails at once rather than after the timeout.
 */
export function createRedisRateLimiter(redis: Redis, options: RedisRateLimiterOptions): RateLimiter {
  const prefix = options.prefix ?? DEFAULT_PREFIX
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const rules: Record<RateLimitBucket, RateLimitRule> = { ...RATE_LIMIT_RULES, ...options.rules }
  const limiterFor = (bucket: RateLimitBucket) =>
    new RLWrapperTimeouts({
      limiter: new RateLimiterRedis({
        storeClient: redis,
        keyPrefix: `${prefix}:${bucket}`,
        points: rules[bucket].limit,
        duration: rules[bucket].windowSec,
        customIncrTtlLuaScript: SLIDING_WINDOW_SCRIPT,
      }),
      timeoutMs,
    })
  const limiters: Record<RateLimitBucket, RLWrapperTimeouts> = {
    default: limiterFor('default'),
    bulk: limiterFor('bulk'),
    uploads: limiterFor('uploads'),
    variants: limiterFor('variants'),
    analyticsRefresh: limiterFor('analyticsRefresh'),
    signInIp: limiterFor('signInIp'),
    signInAccount: limiterFor('signInAccount'),
    sandboxComments: limiterFor('sandboxComments'),
    reviewLink: limiterFor('reviewLink'),
  }

  /** The end of the window Redis counted in, on this process's clock (rounded: both clocks may differ a little). */
  const windowEnd = (bucket: RateLimitBucket, msBeforeNext: number) => {
    const windowMs = rules[bucket].windowSec * 1000
    return Math.round((Date.now() + msBeforeNext) / windowMs) * windowMs
  }

  const fallback = createMemoryRateLimiter({ rules })
  const outage = createOutageTracker({
    store: 'redis',
    onUnavailable: options.onError,
    ...(options.onRecovered ? { onRecovered: options.onRecovered } : {}),
  })

  /** The decision without Redis: counted in this instance's memory, or refused (sign-in). */
  const withoutRedis = async (bucket: RateLimitBucket, clientKey: string): Promise<RateLimitDecision> => {
    const rule = rules[bucket]
    if (rule.whenUnavailable === 'refuse') return decisionWhenUnavailable(rule, Date.now())
    return { ...(await fallback.check(bucket, clientKey)), unavailable: true }
  }

  return {
    async check(bucket, clientKey) {
      const { limit } = rules[bucket]
      // During an outage, no command is tried until the client has reconnected: no wait per request.
      if (outage.down() && redis.status !== 'ready') {
        outage.failed(null, { bucket, clientKey })
        return withoutRedis(bucket, clientKey)
      }
      try {
        const res = await limiters[bucket].consume(clientKey)
        outage.answered()
        return { allowed: true, limit, remaining: res.remainingPoints, resetAt: windowEnd(bucket, res.msBeforeNext) }
      } catch (outcome) {
        if (outcome instanceof RateLimiterRes) {
          outage.answered()
          return { allowed: false, limit, remaining: 0, resetAt: windowEnd(bucket, outcome.msBeforeNext) }
        }
        outage.failed(outcome, { bucket, clientKey })
        return withoutRedis(bucket, clientKey)
      }
    },
    status: () => outage.status(),
  }
}
