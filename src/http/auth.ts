import type { MiddlewareHandler } from 'hono'
import { authenticateToken } from '../services/tokens'
import type { AppEnv } from './context'
import { AppError } from '../domain/errors'

/**
 * `Authorization: Bearer <token>`; the workspace comes from the token alone. A 401 names the scheme
 * in `WWW-Authenticate` (RFC 6750): `Bearer` when no token came, with `error="invalid_token"` when
 * one came and was refused.
 */
export const requireToken = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  const header = c.req.header('authorization') ?? ''
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header)
  if (!match) {
    // A bearer token that does not parse was refused; no token (or another scheme) gets the bare challenge.
    c.header('WWW-Authenticate', /^Bearer\s+\S/i.test(header) ? 'Bearer error="invalid_token"' : 'Bearer')
    throw new AppError('unauthorized', 'Send your API token as `Authorization: Bearer <token>`.')
  }
  const deps = c.get('deps')
  const auth = await authenticateToken(deps.db, match[1]!, deps.clock.now())
  if (!auth) {
    c.header('WWW-Authenticate', 'Bearer error="invalid_token"')
    throw new AppError('unauthorized', 'The API token is malformed, unknown or revoked.')
  }
  c.set('auth', auth)
  await next()
}
