import type { MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import type { AppEnv } from './context'
import { AppError } from '../domain/errors'

/**
 * A JSON media type with well-formed parameters (`application/json`, `application/json; charset=utf-8`,
 * `application/merge-patch+json`): the same rule as the request validators behind this guard, so
 * a type they would refuse is answered here, in words, and never reaches them.
 */
const JSON_TYPE = /^application\/(?:[a-z.-]+\+)?json(?:;\s*[a-z0-9-]+=[^;]+)*$/i

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
        'Send the body as JSON with the header Content-Type: application/json (parameters, if any, as ; name=value).',
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
