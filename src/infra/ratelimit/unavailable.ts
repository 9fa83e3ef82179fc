import type { RateLimitDecision, RateLimitRule } from './types'

/** How long a refusal made because the store cannot answer asks the client to wait. */
export const UNAVAILABLE_RETRY_MS = 30_000

/**
 * The decision of a shared limiter whose store failed (error, timeout, not connected), by the
 * bucket's `whenUnavailable` policy: allowed with the headers of a fresh window (remaining =
 * limit - 1, resetAt = end of the current window), or refused for `UNAVAILABLE_RETRY_MS`.
 */
export function decisionWhenUnavailable(rule: RateLimitRule, nowMs: number): RateLimitDecision {
  const { limit, windowSec } = rule
  if (rule.whenUnavailable === 'refuse') {
    return { allowed: false, limit, remaining: 0, resetAt: nowMs + UNAVAILABLE_RETRY_MS, unavailable: true }
  }
  const windowMs = windowSec * 1000
  return {
    allowed: true,
    limit,
    remaining: Math.max(0, limit - 1),
    resetAt: (Math.floor(nowMs / windowMs) + 1) * windowMs,
    unavailable: true,
  }
}
