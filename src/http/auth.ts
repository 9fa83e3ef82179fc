import type { MiddlewareHandler } from 'hono'
import { authenticateToken } from '../services/tokens'
import type { AppEnv } from './context'
import { AppError } from '../domain/errors'

/** `Authorization: Bearer <token>`; the workspace comes from the token alone. */
export const requireToken = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  const header = c.req.header('authorization') ?? ''
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header)
  if (!match) throw new AppError('unauthorized', 'Send your API token as `Authorization: Bearer <token>`.')
  const deps = c.get('deps')
  const auth = await authenticateToken(deps.db, match[1]!, deps.clock.now())
  if (!auth) throw new AppError('unauthorized', 'The API token is malformed, unknown or revoked.')
  c.set('auth', auth)
  await next()
}
