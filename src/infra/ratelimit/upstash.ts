import { Ratelimit } from '@upstash/ratelimit'
import type { Redis } from '@upstash/redis'
import {
  RATE_LIMIT_RULES,
  type RateLimitBucket,
  type RateLimitFailureContext,
  type RateLimiter,
  type RateLimitRule,
} from './types'
import { decisionWhenUnavailable } from './unavailable'

export type { RateLimitFailureContext } from './types'

export interface UpstashRateLimiterOptions {
  /** Prefix of every Redis key; the bucket name follows it. Defaults to `ratelimit`. */
  prefix?: string
  /** Overrides of the spec's rules, bucket by bucket. */
  rules?: Partial<Record<RateLimitBucket, RateLimitRule>>
  /**
   * Longest wait for Redis before the request is let through (fail-open). Defaults to 1000 ms;
   * @upstash/ratelimit's own default would be 5 s.
   */
  timeoutMs?: number
  /**
   * Called when Redis cannot answer (network error, error reply, timeout). The bucket's
   * `whenUnavailable` then decides. Defaults to a `console.warn` that leaves out the client key.
   */
  onError?: (error: unknown, context: RateLimitFailureContext) => void
}

const DEFAULT_PREFIX = 'ratelimit'
const DEFAULT_TIMEOUT_MS = 1000

/** One short line: Upstash errors quote the whole command, Lua script included. */
function warnUnavailable(error: unknown, { bucket }: RateLimitFailureContext): void {
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
  console.warn(`[ratelimit] Redis unavailable (bucket ${bucket}): ${message.slice(0, 200)}`)
}

/**
 * The production limiter: one @upstash/ratelimit `slidingWindow` per bucket over the caller's
 * fetch-based `@upstash/redis` client, so it runs unchanged in a Worker and on Node.
 *
 * Keys are `<prefix>:<bucket>:<clientKey>:<windowIndex>`. No ephemeral cache (it is an
 * unbounded Map) and no analytics, so one check is exactly one EVALSHA (EVAL on NOSCRIPT).
 *
 * Failure policy (unavailable.ts): when Redis errors or is slower than `timeoutMs`, `onError` is
 * called and the bucket's `whenUnavailable` decides: the API's buckets fail OPEN (allowed with the
 * headers of a fresh window: a rate-limit outage must not take the whole API down), the sign-in
 * buckets fail CLOSED (refused for 30 s). `check` never rejects because of Redis.
 */
export function createUpstashRateLimiter(redis: Redis, options: UpstashRateLimiterOptions = {}): RateLimiter {
  const prefix = options.prefix ?? DEFAULT_PREFIX
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const onError = options.onError ?? warnUnavailable
  const rules: Record<RateLimitBucket, RateLimitRule> = { ...RATE_LIMIT_RULES, ...options.rules }

  const limiterFor = (bucket: RateLimitBucket): Ratelimit =>
    new Ratelimit({
      redis,
      limiter: Ratelimit.slidingWindow(rules[bucket].limit, `${rules[bucket].windowSec} s`),
      prefix: `${prefix}:${bucket}`,
      ephemeralCache: false,
      analytics: false,
      enableTelemetry: false,
      timeout: timeoutMs,
    })
  const limiters: Record<RateLimitBucket, Ratelimit> = {
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

  return {
    async check(bucket, clientKey) {
      try {
        const result = await limiters[bucket].limit(clientKey)
        // On timeout the library resolves { success: true, limit: 0, reset: 0, reason: 'timeout' }.
        if (result.reason === 'timeout') {
          onError(new Error(`rate limit check timed out after ${timeoutMs} ms`), { bucket, clientKey })
          return decisionWhenUnavailable(rules[bucket], Date.now())
        }
        return { allowed: result.success, limit: result.limit, remaining: result.remaining, resetAt: result.reset }
      } catch (error) {
        onError(error, { bucket, clientKey })
        return decisionWhenUnavailable(rules[bucket], Date.now())
      }
    },
  }
}
