/**
 * The API's rate limits (docs/decisions.md, "Rate limits"): each route belongs to exactly one bucket,
 * counted per client IP over a sliding window of one minute.
 */
export type RateLimitBucket =
  | 'default'
  | 'bulk'
  | 'uploads'
  | 'variants'
  | 'analyticsRefresh'
  | 'signInIp'
  | 'signInAccount'
  | 'sandboxComments'
  | 'reviewLink'

export interface RateLimitRule {
  limit: number
  windowSec: number
  /**
   * What a shared limiter answers when its store (Redis) cannot: `allow` (the default: a rate-limit
   * outage must not take the API down; with REDIS_URL the instance then counts in its own memory,
   * the same limits per instance) or `refuse` (sign-in: an outage must not lift the limit a password
   * guesser is held to; answered 503 with Retry-After).
   */
  whenUnavailable?: 'allow' | 'refuse'
}

export const RATE_LIMIT_RULES: Record<RateLimitBucket, RateLimitRule> = {
  default: { limit: 120, windowSec: 60 },
  bulk: { limit: 10, windowSec: 60 },
  uploads: { limit: 60, windowSec: 60 },
  variants: { limit: 30, windowSec: 60 },
  /** `POST /v1/analytics/refresh`: each call makes the next collection pass call the networks. */
  analyticsRefresh: { limit: 6, windowSec: 60 },
  /** Dashboard sign-in attempts per client IP. */
  signInIp: { limit: 20, windowSec: 60, whenUnavailable: 'refuse' },
  /** Dashboard sign-in attempts per account (its email, known or not): past it the account is locked for the window. */
  signInAccount: { limit: 10, windowSec: 900, whenUnavailable: 'refuse' },
  /** Visitors' comments on the sandbox network's post pages, per client IP. */
  sandboxComments: { limit: 10, windowSec: 60 },
  /** Every request to a client review link's pages (`/review/{token}`), per client IP. */
  reviewLink: { limit: 30, windowSec: 60 },
}

export interface RateLimitDecision {
  allowed: boolean
  limit: number
  /** Requests left in the current window after this one (0 when refused). */
  remaining: number
  /** Epoch milliseconds at which the current window ends. */
  resetAt: number
  /**
   * The store could not answer: the decision is the bucket's `whenUnavailable` policy, not a count
   * (`resetAt` is then when to try again).
   */
  unavailable?: true
}

/**
 * The port: Workers use @upstash/ratelimit over Upstash Redis; Node uses rate-limiter-flexible over
 * ioredis with REDIS_URL (redis.ts), Upstash when configured, else counts in memory (memory.ts).
 * All three run the same sliding-window algorithm.
 */
export interface RateLimiter {
  check(bucket: RateLimitBucket, clientKey: string): Promise<RateLimitDecision>
  /** Where the limiter counts and whether that store answers (`GET /health`); absent where it is not tracked. */
  status?(): RateLimiterStatus
}

/** `GET /health`'s `rateLimiter`: the store, its state since when, and the checks decided without it in the current outage. */
export interface RateLimiterStatus {
  store: 'memory' | 'redis'
  state: 'ok' | 'unavailable'
  /** When the current state began (ISO 8601); null when it has not changed since start-up. */
  since: string | null
  /** Checks decided without the store since the current outage began (0 while `ok`). */
  fallbackDecisions: number
}

/** What a shared limiter tells its `onError` about a check its store could not answer (never the client key's use in logs). */
export interface RateLimitFailureContext {
  bucket: RateLimitBucket
  clientKey: string
}
