import type { MiddlewareHandler } from 'hono'
import type { RateLimitBucket } from '../infra/ratelimit/types'
import type { AppEnv } from './context'
import { AppError } from '../domain/errors'

/**
 * Counts the request against its bucket for the client IP, before authentication, and puts
 * `RateLimit-Limit/Remaining/Reset` on every answer (`Retry-After` too on 429).
 */
export const rateLimit =
  (bucketFor: (method: string, path: string) => RateLimitBucket): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const deps = c.get('deps')
    const decision = await deps.rateLimiter.check(bucketFor(c.req.method, c.req.path), c.var.clientIp)
    const resetSec = Math.max(0, Math.ceil((decision.resetAt - deps.clock.now().getTime()) / 1000))
    const headers: Record<string, string> = {
      'RateLimit-Limit': String(decision.limit),
      'RateLimit-Remaining': String(decision.remaining),
      'RateLimit-Reset': String(resetSec),
    }
    if (!decision.allowed) {
      for (const [k, v] of Object.entries(headers)) c.header(k, v)
      // At the reset instant the previous window still weighs fully; one second more and a retry gets through.
      // The message says the same wait as `Retry-After`.
      const retryAfterSec = resetSec + 1
      // Thrown, so the app's error handler answers it in the site's kind (the API's JSON, a dashboard page).
      throw new AppError(
        'rate_limited',
        `Too many requests: the limit is ${decision.limit} per minute. Try again in ${retryAfterSec} s.`,
        { retryAfterSec },
      )
    }
    await next()
    for (const [k, v] of Object.entries(headers)) c.res.headers.set(k, v)
  }
