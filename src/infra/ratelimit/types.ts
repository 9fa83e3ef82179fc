/**
 * The API's rate limits (docs/decisions.md, "Rate limits"): each route belongs to exactly one bucket,
 * counted per client IP over a sliding window of one minute.
 */
export type RateLimitBucket = 'default' | 'bulk' | 'uploads' | 'variants' | 'signInIp' | 'signInAccount'

export interface RateLimitRule {
  limit: number
  windowSec: number
}

export const RATE_LIMIT_RULES: Record<RateLimitBucket, RateLimitRule> = {
  default: { limit: 120, windowSec: 60 },
  bulk: { limit: 10, windowSec: 60 },
  uploads: { limit: 60, windowSec: 60 },
  variants: { limit: 30, windowSec: 60 },
  /** Dashboard sign-in attempts per client IP. */
  signInIp: { limit: 20, windowSec: 60 },
  /** Dashboard sign-in attempts per account (its email, known or not): past it the account is locked for the window. */
  signInAccount: { limit: 10, windowSec: 900 },
}

export interface RateLimitDecision {
  allowed: boolean
  limit: number
  /** Requests left in the current window after this one (0 when refused). */
  remaining: number
  /** Epoch milliseconds at which the current window ends. */
  resetAt: number
}

/** The port: production uses @upstash/ratelimit over Upstash Redis; the embedded default counts in memory. */
export interface RateLimiter {
  check(bucket: RateLimitBucket, clientKey: string): Promise<RateLimitDecision>
}
