/**
 * The visibility check of an operation whose path names an account, a post or an inbox comment
 * (`RouteMeta.scope`), for a caller limited to some account groups: 404 for what they cannot see,
 * 403 `forbidden` for a write to a post that also goes to accounts outside their groups. A caller
 * who sees the whole workspace passes through without a query.
 */
import type { MiddlewareHandler } from 'hono'
import {
  assertAccountVisible,
  assertCommentVisible,
  assertPostVisible,
  assertPostWritable,
} from '../services/access/visibility'
import type { AppEnv } from './context'
import type { ScopeSubject } from './route-meta'

const CHECKS = {
  account: assertAccountVisible,
  post: assertPostVisible,
  'post-write': assertPostWritable,
  comment: assertCommentVisible,
} as const

export function scopeGuard(subject: ScopeSubject): MiddlewareHandler<AppEnv> {
  const check = CHECKS[subject]
  return async (c, next) => {
    const { auth, deps } = c.var
    const id = c.req.param('id')
    if (auth.access.groupIds !== null && id) await check(deps.db, auth, id)
    await next()
  }
}
