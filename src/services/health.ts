/**
 * What `GET /health` reports: whether this instance can serve (its database answers in time) and
 * what the publishing engine has left behind (targets whose time passed and that nobody has taken,
 * claims whose lease ran out), the figures a self-hoster alerts on.
 */
import { pingDatabase, selectPublishingBacklog } from '../db/queries/health'
import type { Deps } from '../deps'
import { isDatabaseUnavailable } from '../db/unavailable'
import type { RateLimiterStatus } from '../infra/ratelimit/types'

/** A target still pending this long after its time counts as overdue (the sweep runs every minute). */
export const OVERDUE_AFTER_SEC = 120
/** The database must answer a health check within this, else the instance is reported unavailable. */
export const HEALTH_DB_TIMEOUT_MS = 2000

export type HealthStatus = 'ok' | 'degraded' | 'unavailable'

export interface HealthReport {
  status: HealthStatus
  checkedAt: string
  database: { status: 'ok' | 'unavailable'; latencyMs: number | null; reason?: string }
  publishing: { overdueTargets: number; oldestOverdueSec: number | null; expiredClaims: number } | null
  /**
   * Where rate limits are counted and whether that store answers: with REDIS_URL, `unavailable` while
   * Redis does not (the API counted in this instance's memory, sign-in refused) and the checks decided
   * so meanwhile. Absent where the limiter does not say (Upstash).
   */
  rateLimiter?: RateLimiterStatus
}

class TimedOut extends Error {}

/** `work`, or a `TimedOut` once `ms` have passed (the work itself is left to finish or fail on its own). */
async function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimedOut()), ms)
  })
  try {
    return await Promise.race([work, timeout])
  } finally {
    clearTimeout(timer)
  }
}

/**
 * Pings the database (bounded by `timeoutMs`), then reads the backlog. Never throws: a database that
 * fails or is late makes the report `unavailable`, with a reason in words and none of the driver's
 * message (it may name hosts or SQL). Overdue targets, expired claims or a rate limiter whose store
 * does not answer make it `degraded`.
 */
export async function checkHealth(deps: Deps, options: { timeoutMs?: number } = {}): Promise<HealthReport> {
  const timeoutMs = options.timeoutMs ?? HEALTH_DB_TIMEOUT_MS
  const limiter = deps.rateLimiter.status?.()
  const rateLimiter = limiter ? { rateLimiter: limiter } : {}
  const now = deps.clock.now()
  const started = performance.now()
  const checkedAt = now.toISOString()
  try {
    await within(timeoutMs, pingDatabase(deps.db))
  } catch (err) {
    const reason =
      err instanceof TimedOut
        ? `no answer within ${timeoutMs} ms`
        : isDatabaseUnavailable(err)
          ? 'the database cannot be reached'
          : 'the query failed'
    deps.logger.warn('health_database_unavailable', { reason })
    return {
      status: 'unavailable',
      checkedAt,
      database: { status: 'unavailable', latencyMs: null, reason },
      publishing: null,
      ...rateLimiter,
    }
  }
  const latencyMs = Math.round((performance.now() - started) * 10) / 10
  const backlog = await within(
    timeoutMs,
    selectPublishingBacklog(deps.db, { now, overdueBefore: new Date(now.getTime() - OVERDUE_AFTER_SEC * 1000) }),
  ).catch(() => null)
  const publishing = backlog && {
    overdueTargets: backlog.overdue,
    oldestOverdueSec: backlog.oldestDueAt ? Math.round((now.getTime() - backlog.oldestDueAt.getTime()) / 1000) : null,
    expiredClaims: backlog.expiredClaims,
  }
  const degraded =
    !publishing || publishing.overdueTargets > 0 || publishing.expiredClaims > 0 || limiter?.state === 'unavailable'
  return {
    status: degraded ? 'degraded' : 'ok',
    checkedAt,
    database: { status: 'ok', latencyMs },
    publishing,
    ...rateLimiter,
  }
}
