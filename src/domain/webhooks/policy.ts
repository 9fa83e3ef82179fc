/** How webhook deliveries are retried and when an endpoint is given up; tests and benchmarks pass their own. */
export interface WebhookPolicy {
  /** Attempts in all (the first included); the default schedule spans about three days. */
  maxAttempts: number
  /** The first retry waits about this long, each next one `factor` times longer (with jitter), capped. */
  backoffBaseMs: number
  backoffFactor: number
  backoffMaxMs: number
  /** One attempt's time limit, connection and answer included. */
  timeoutMs: number
  /** A claimed delivery is not taken again before this (longer than `timeoutMs`). */
  leaseMs: number
  /** An endpoint whose every attempt failed for this long is disabled. */
  disableAfterMs: number
  /** The longest `Retry-After` honoured. */
  maxRetryAfterMs: number
  /** Jitter source, 0..1 (deterministic in tests). */
  random: () => number
}

const HOUR = 3_600_000

/** Events are listed and replayable this long (`GET /v1/events`); the sweep deletes older ones. */
export const EVENT_RETENTION_DAYS = 30
export const EVENT_RETENTION_MS = EVENT_RETENTION_DAYS * 24 * HOUR

export const DEFAULT_WEBHOOK_POLICY: WebhookPolicy = {
  // 5 s, 20 s, 80 s, 5 min, 21 min, 85 min, 5.7 h, then every 12 h: about 3 days over 13 attempts.
  maxAttempts: 13,
  backoffBaseMs: 5_000,
  backoffFactor: 4,
  backoffMaxMs: 12 * HOUR,
  timeoutMs: 10_000,
  leaseMs: 60_000,
  disableAfterMs: 5 * 24 * HOUR,
  maxRetryAfterMs: 24 * HOUR,
  random: Math.random,
}

/** The policy with a caller's overrides. */
export const webhookPolicy = (overrides?: Partial<WebhookPolicy>): WebhookPolicy => ({
  ...DEFAULT_WEBHOOK_POLICY,
  ...overrides,
})

/**
 * Milliseconds before the attempt after `attempt` (1 = the first failed): exponential with ±20 %
 * jitter, or the receiver's `Retry-After` when it gave one (capped).
 */
export function webhookRetryDelayMs(policy: WebhookPolicy, attempt: number, retryAfterMs?: number | null): number {
  if (retryAfterMs !== undefined && retryAfterMs !== null && retryAfterMs >= 0)
    return Math.min(retryAfterMs, policy.maxRetryAfterMs)
  const exponential = Math.min(policy.backoffMaxMs, policy.backoffBaseMs * policy.backoffFactor ** (attempt - 1))
  return Math.round(exponential * (0.8 + 0.4 * policy.random()))
}

/** `Retry-After` in milliseconds (seconds or an HTTP date), or null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now: Date): number | null {
  if (value === null) return null
  const trimmed = value.trim()
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000
  const at = Date.parse(trimmed)
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime())
}
