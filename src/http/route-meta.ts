import type { RouteConfig, RouteHandler } from '@hono/zod-openapi'
import { METHOD_NAME_ALL } from 'hono/router'
import { TrieRouter } from 'hono/router/trie-router'
import type { RateLimitBucket } from '../infra/ratelimit/types'
import type { AppEnv } from './context'

/** How the app protects one operation. Each route file declares its own, next to its `createRoute`. */
export interface RouteMeta {
  /** Takes an `Idempotency-Key`: the first successful answer is kept and replayed for 24 hours. */
  idempotent: boolean
  /**
   * It stores that answer in the transaction of its own write (`c.var.idempotency` names the key), so
   * the answer commits with the work: nothing is claimed before it.
   */
  answerInTransaction?: boolean
  /** The rate limit the operation counts against (per client IP). */
  rateLimit: RateLimitBucket
  /**
   * What the path's `{id}` names, checked against a caller limited to some account groups before
   * the handler runs (http/scope-guard.ts): `account`, `post` and `comment` are 404 when outside
   * their groups; `post-write` also 403 when the post goes to accounts outside them too.
   */
  scope?: ScopeSubject
}

export type ScopeSubject = 'account' | 'post' | 'post-write' | 'comment'

/** What every route file under src/routes exports. */
export interface RouteModule<R extends RouteConfig> {
  /** Its `createRoute(...)`, with an `operationId`: camelCase, unique, never renamed once published. */
  route: R & { operationId: string; getRoutingPath(): string }
  handler: RouteHandler<R, AppEnv>
  meta: RouteMeta
}

/** One registered operation, as the app-wide middleware sees it (method and Hono path under its mount point). */
export interface RegisteredRoute {
  method: string
  path: string
  meta: RouteMeta
}

/**
 * Finds the bucket of a request from the operations' own declarations, with Hono's own path
 * matching, before authentication and before the request is routed (a 401 counts too).
 */
export function bucketResolver(routes: RegisteredRoute[]): (method: string, path: string) => RateLimitBucket {
  const router = new TrieRouter<RateLimitBucket>()
  for (const r of routes) if (r.meta.rateLimit !== 'default') router.add(r.method, r.path, r.meta.rateLimit)
  return (method, path) => {
    const [matches] = router.match(method, path)
    return matches[0]?.[0] ?? 'default'
  }
}

/**
 * The methods a path takes, from the routes the app registered (Hono's own path matching): what a
 * 405 lists in `Allow` for a known path asked with another method. Empty for an unknown path. A
 * GET route also answers HEAD.
 */
export function allowedMethodsResolver(routes: Array<{ method: string; path: string }>): (path: string) => string[] {
  const router = new TrieRouter<string>()
  for (const r of routes) if (r.method !== METHOD_NAME_ALL) router.add(METHOD_NAME_ALL, r.path, r.method)
  return (path) => {
    const methods = new Set(router.match(METHOD_NAME_ALL, path)[0].map(([method]) => method))
    if (methods.has('GET')) methods.add('HEAD')
    return [...methods].sort()
  }
}
