import type { MiddlewareHandler } from 'hono'
import { randomBase62 } from '../lib/ids'
import type { AppEnv } from './context'

/** Every answer carries `X-Request-Id`; error bodies repeat it as `requestId`. */
export const requestId = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  const id = `req_${randomBase62(20)}`
  c.set('requestId', id)
  c.header('X-Request-Id', id)
  await next()
  c.res.headers.set('X-Request-Id', id)
}
