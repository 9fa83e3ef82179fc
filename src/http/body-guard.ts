import type { MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import type { AppEnv } from './context'
import { AppError } from '../domain/errors'

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i

/** 415 for a body that is not declared JSON. A request without a body (publish, retry) needs no type. */
export const requireJsonBody = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  const method = c.req.method
  if (method === 'POST' || method === 'PUT' || method === 'PATCH') {
    const length = c.req.header('content-length')
    const hasBody = (length !== undefined && length !== '0') || c.req.header('transfer-encoding') !== undefined
    const type = c.req.header('content-type')
    if ((hasBody || type) && !JSON_TYPE.test(type ?? '')) {
      throw new AppError(
        'unsupported_media_type',
        'Send the body as JSON with the header Content-Type: application/json.',
      )
    }
  }
  await next()
}

/** 413 beyond the documented cap, counted on the bytes actually received (not only Content-Length). */
export const limitBody = (maxBytes: number): MiddlewareHandler<AppEnv> =>
  bodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw new AppError('payload_too_large', `The request body is over the ${maxBytes}-byte limit.`)
    },
  })
