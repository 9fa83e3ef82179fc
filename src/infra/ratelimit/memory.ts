import {
  RATE_LIMIT_RULES,
  type RateLimitBucket,
  type RateLimitDecision,
  type RateLimiter,
  type RateLimitRule,
} from './types'

export interface MemoryRateLimiterOptions {
  /** Epoch milliseconds; inject a fake clock in tests. Defaults to `Date.now`. */
  now?: () => number
  /** Overrides of the spec's rules, bucket by bucket. */
  rules?: Partial<Record<RateLimitBucket, RateLimitRule>>
  /** Most clients remembered per bucket; past it the least recently seen one is forgotten. */
  maxClientsPerBucket?: number
}

export interface MemoryRateLimiter extends RateLimiter {
  /** Clients currently remembered across all buckets (bounded; exposed for tests and metrics). */
  trackedClientCount(): number
}

/** Counts of one client in one bucket: its latest fixed window and the one before it. */
interface ClientWindows {
  windowIndex: number
  currentCount: number
  previousCount: number
}

const DEFAULT_MAX_CLIENTS_PER_BUCKET = 10_000

/**
 * The embedded rate limiter (no Redis). It runs @upstash/ratelimit's single-region
 * `slidingWindow` algorithm step for step, so `limit`, `remaining` and `resetAt` match
 * the production limiter exactly:
 *
 * - windows are fixed, aligned to the epoch: index = floor(now / window);
 * - the previous window counts with weight (1 - elapsed fraction of the current one), floored;
 * - a request is refused when weightedPrevious + current >= limit, and a refusal is not counted;
 * - remaining = limit - (current after this request + weightedPrevious); 0 when refused;
 * - resetAt = end of the current fixed window.
 *
 * Memory stays bounded: each bucket's Map is kept in least-recently-seen order, entries whose
 * windows are both expired are swept from its front on every check, and past
 * `maxClientsPerBucket` the least recently seen client is dropped.
 */
export function createMemoryRateLimiter(options: MemoryRateLimiterOptions = {}): MemoryRateLimiter {
  const now = options.now ?? Date.now
  const rules: Record<RateLimitBucket, RateLimitRule> = { ...RATE_LIMIT_RULES, ...options.rules }
  const maxClientsPerBucket = options.maxClientsPerBucket ?? DEFAULT_MAX_CLIENTS_PER_BUCKET
  const clientsByBucket = new Map<RateLimitBucket, Map<string, ClientWindows>>()

  function clientsOf(bucket: RateLimitBucket): Map<string, ClientWindows> {
    let clients = clientsByBucket.get(bucket)
    if (!clients) {
      clients = new Map()
      clientsByBucket.set(bucket, clients)
    }
    return clients
  }

  /** Drops, oldest first, clients whose current and previous windows have both passed. */
  function sweepExpired(clients: Map<string, ClientWindows>, windowIndex: number): void {
    for (const [clientKey, windows] of clients) {
      if (windows.windowIndex >= windowIndex - 1) break
      clients.delete(clientKey)
    }
  }

  /** The client's counts moved forward to `windowIndex` (a fresh record when unknown or stale). */
  function windowsAt(stored: ClientWindows | undefined, windowIndex: number): ClientWindows {
    if (stored?.windowIndex === windowIndex) return stored
    if (stored?.windowIndex === windowIndex - 1) {
      return { windowIndex, currentCount: 0, previousCount: stored.currentCount }
    }
    return { windowIndex, currentCount: 0, previousCount: 0 }
  }

  return {
    async check(bucket, clientKey): Promise<RateLimitDecision> {
      const { limit, windowSec } = rules[bucket]
      const windowMs = windowSec * 1000
      const nowMs = now()
      const windowIndex = Math.floor(nowMs / windowMs)
      const resetAt = (windowIndex + 1) * windowMs
      const clients = clientsOf(bucket)
      sweepExpired(clients, windowIndex)

      const windows = windowsAt(clients.get(clientKey), windowIndex)
      const elapsedFraction = (nowMs % windowMs) / windowMs
      const weightedPrevious = Math.floor((1 - elapsedFraction) * windows.previousCount)
      const allowed = weightedPrevious + windows.currentCount < limit
      if (allowed) windows.currentCount += 1

      // Re-insert so the Map stays in least-recently-seen order (what both sweeps rely on).
      clients.delete(clientKey)
      if (windows.currentCount > 0 || windows.previousCount > 0) {
        clients.set(clientKey, windows)
        for (const [oldestKey] of clients) {
          if (clients.size <= maxClientsPerBucket) break
          clients.delete(oldestKey)
        }
      }

      const remaining = allowed ? Math.max(0, limit - (windows.currentCount + weightedPrevious)) : 0
      return { allowed, limit, remaining, resetAt }
    },

    status: () => ({ store: 'memory', state: 'ok', since: null, fallbackDecisions: 0 }),

    trackedClientCount() {
      let count = 0
      for (const clients of clientsByBucket.values()) count += clients.size
      return count
    },
  }
}
