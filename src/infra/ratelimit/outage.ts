import type { RateLimitFailureContext, RateLimiterStatus } from './types'

export interface OutageTrackerOptions {
  store: RateLimiterStatus['store']
  /** Epoch milliseconds. Defaults to `Date.now`. */
  now?: () => number
  /** The first failed check of an outage (never called again until the store has answered). */
  onUnavailable: (error: unknown, context: RateLimitFailureContext) => void
  /** The first answered check after an outage, with how long it lasted and what was decided without the store. */
  onRecovered?: (outage: { outageMs: number; fallbackDecisions: number }) => void
}

export interface OutageTracker {
  /** A check the store could not answer: the start of an outage, or one more decision made without it. */
  failed(error: unknown, context: RateLimitFailureContext): void
  /** A check the store answered: the end of an outage, if one was under way. */
  answered(): void
  down(): boolean
  status(): RateLimiterStatus
}

/**
 * The state of a shared limiter's store, for `GET /health` and the log: `ok` or `unavailable` since
 * when, and how many checks were decided without it during the current outage. One log line when an
 * outage starts, one when it ends, rather than one per request.
 */
export function createOutageTracker(options: OutageTrackerOptions): OutageTracker {
  const now = options.now ?? Date.now
  let downSince: number | null = null
  let upSince: number | null = null
  let fallbackDecisions = 0
  return {
    failed(error, context) {
      if (downSince === null) {
        downSince = now()
        fallbackDecisions = 0
        options.onUnavailable(error, context)
      }
      fallbackDecisions += 1
    },
    answered() {
      if (downSince === null) return
      const at = now()
      const outage = { outageMs: at - downSince, fallbackDecisions }
      downSince = null
      upSince = at
      options.onRecovered?.(outage)
    },
    down: () => downSince !== null,
    status() {
      const since = downSince ?? upSince
      return {
        store: options.store,
        state: downSince === null ? 'ok' : 'unavailable',
        since: since === null ? null : new Date(since).toISOString(),
        fallbackDecisions: downSince === null ? 0 : fallbackDecisions,
      }
    },
  }
}
