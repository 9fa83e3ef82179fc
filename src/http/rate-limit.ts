import type { MiddlewareHandler } from 'hono'
import type { RateLimitBucket } from '../infra/ratelimit/types'
import type { AppEnv } from './context'
import { AppError } from '../domain/errors'
import { errorResponse } from './error-response'

/** Routes with a limit of their own (api-spec.md, "Limits"); every other route counts against `default`. */
const BUCKET_ROUTES: ReadonlyArray<{ method: string; path: RegExp; bucket: RateLimitBucket }> = [
  { method: 'POST', path: /^\/v1\/posts\/bulk\/?$/, bucket: 'bulk' },
  { method: 'POST', path: /^\/v1\/media\/uploads\/?$/, bucket: 'uploads' },
  { method: 'POST', path: /^\/v1\/media\/[^/]+\/variants\/?$/, bucket: 'variants' },
]

export function bucketFor(method: string, path: string): RateLimitBucket {
  return BUCKET_ROUTES.find((r) => r.method === method && r.path.test(path))?.bucket ?? 'default'
}

/**
 * Counts the request against its bucket for the client IP, before authentication, and puts
 * `RateLimit-Limit/Remaining/Reset` on every answer (`Retry-After` too on 429).
 */
export const rateLimit = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  const deps = c.get('deps')
  const decision = await deps.rateLimiter.check(bucketFor(c.req.method, c.req.path), deps.clientIp(c))
  const resetSec = Math.max(0, Math.ceil((decision.resetAt - deps.clock.now().getTime()) / 1000))
  const headers: Record<string, string> = {
    'RateLimit-Limit': String(decision.limit),
    'RateLimit-Remaining': String(decision.remaining),
    'RateLimit-Reset': String(resetSec),
  }
  if (!decision.allowed) {
    for (const [k, v] of Object.entries(headers)) c.header(k, v)
    return errorResponse(
      c,
      new AppError(
        'rate_limited',
        `Too many requests: the limit is ${decision.limit} per minute. Try again in ${resetSec} s.`,
        {
          // At the reset instant the previous window still weighs fully; one second more and a retry gets through.
          retryAfterSec: resetSec + 1,
        },
      ),
    )
  }
  await next()
  for (const [k, v] of Object.entries(headers)) c.res.headers.set(k, v)
}
