import type { MiddlewareHandler } from 'hono'
import { randomBase62 } from '../lib/ids'
import type { AppEnv } from './context'

/** An id a client or proxy may send: 1 to 128 of letters, digits, `.`, `_`, `:`, `-` (nothing to break a log line). */
const INCOMING_ID = /^[A-Za-z0-9._:-]{1,128}$/

/**
 * Every answer carries `X-Request-Id`; error bodies repeat it as `requestId`. A valid incoming
 * `X-Request-Id` is kept, so one id follows a call through a client's or proxy's logs and ours;
 * anything else is replaced by a new `req_…` id.
 */
export const requestId = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  const incoming = c.req.header('x-request-id')
  const id = incoming !== undefined && INCOMING_ID.test(incoming) ? incoming : `req_${randomBase62(20)}`
  c.set('requestId', id)
  c.header('X-Request-Id', id)
  await next()
  c.res.headers.set('X-Request-Id', id)
}
