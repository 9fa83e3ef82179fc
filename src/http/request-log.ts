import type { MiddlewareHandler } from 'hono'
import { matchedRoutes } from 'hono/route'
import type { AppEnv } from './context'

/**
 * One `info` line per request, once it is answered: method, the route's pattern (`/v1/posts/:id`,
 * never the raw path, which may carry ids or secrets), status, duration in ms, request id, and the
 * workspace when the token was accepted. Never a header, the query or the body.
 */
export const requestLog = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  const started = performance.now()
  try {
    await next()
  } finally {
    const route =
      matchedRoutes(c)
        .filter((r) => r.method !== 'ALL')
        .at(-1)?.path ?? null
    c.var.deps?.logger.info('request', {
      method: c.req.method,
      route,
      status: c.res.status,
      durationMs: Math.round(performance.now() - started),
      requestId: c.var.requestId,
      workspaceId: c.var.auth?.workspaceId,
    })
  }
}
