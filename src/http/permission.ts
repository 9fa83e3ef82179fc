import type { MiddlewareHandler } from 'hono'
import { can, forbiddenMessage, type Permission } from '../domain/access'
import { AppError } from '../domain/errors'
import type { AppEnv } from './context'

/**
 * Refuses a caller whose role lacks the operation's permission: 403 `forbidden`, before anything of
 * the request is done (registered per operation, behind the token check, ahead of idempotency).
 */
export const requirePermission =
  (permission: Permission): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const { role } = c.var.auth.access
    if (!can(role, permission)) throw new AppError('forbidden', forbiddenMessage(role, permission))
    await next()
  }
