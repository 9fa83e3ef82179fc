import type { MiddlewareHandler } from 'hono'
import { cors } from 'hono/cors'
import type { AppEnv } from './context'

/** What a browser may send beyond the simple headers (`Mcp-Protocol-Version`: MCP clients send it to /mcp). */
const ALLOW_HEADERS = ['Authorization', 'Content-Type', 'Idempotency-Key', 'X-Request-Id', 'Mcp-Protocol-Version']
/** What a browser script may read from an answer: the limits, the request id, replays, where a thing is. */
const EXPOSE_HEADERS = [
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'Retry-After',
  'X-Request-Id',
  'Idempotent-Replayed',
  'Location',
  'WWW-Authenticate',
]
const ALLOW_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']
/** How long a browser may reuse a preflight's answer, in seconds. */
const PREFLIGHT_MAX_AGE = 600

/**
 * CORS for the configured browser origins (`CORS_ORIGINS`, exact matches), or null when there are
 * none: then no answer carries a CORS header. A preflight (`OPTIONS` with `Origin` and
 * `Access-Control-Request-Method`) is answered 204 here, before the rate limit and the token
 * check; any other `OPTIONS` goes on like any request.
 */
export function corsFor(origins: readonly string[] | undefined): MiddlewareHandler<AppEnv> | null {
  if (!origins || origins.length === 0) return null
  const handle = cors({
    origin: [...origins],
    allowMethods: ALLOW_METHODS,
    allowHeaders: ALLOW_HEADERS,
    exposeHeaders: EXPOSE_HEADERS,
    maxAge: PREFLIGHT_MAX_AGE,
  })
  return async (c, next) => {
    const preflight =
      c.req.header('origin') !== undefined && c.req.header('access-control-request-method') !== undefined
    if (c.req.method === 'OPTIONS' && !preflight) return next()
    return handle(c, next)
  }
}
