import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { describeError } from '../infra/logger'
import { AppError } from '../domain/errors'
import { errorBody, statusOf } from './errors'
import type { AppEnv } from './context'

/** Turns anything thrown into the API's error body; unexpected errors become a bare 500. */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err
  if (err instanceof HTTPException) {
    if (err.status === 413) return new AppError('payload_too_large', 'The request body is larger than the API accepts.')
    if (err.status === 415)
      return new AppError(
        'unsupported_media_type',
        'Send the body as JSON with the header Content-Type: application/json.',
      )
    if (err.status === 400)
      return new AppError('invalid_request', 'The request body is not valid JSON.', {
        details: [{ path: 'body', message: 'malformed JSON' }],
      })
  }
  return new AppError('internal_error', 'Something went wrong on our side. The request id identifies it in our logs.')
}

export function errorResponse(c: Context<AppEnv>, err: unknown): Response {
  const appError = toAppError(err)
  const requestId = c.get('requestId') ?? 'req_unknown'
  if (appError.code === 'internal_error') {
    c.get('deps')?.logger.error('request_failed', {
      requestId,
      method: c.req.method,
      path: c.req.path,
      ...describeError(err),
    })
  }
  if (appError.retryAfterSec !== undefined) c.header('Retry-After', String(appError.retryAfterSec))
  // Every 401 names the API's scheme (RFC 7235); the token check may have said more already.
  if (statusOf(appError) === 401 && !c.res.headers.has('WWW-Authenticate')) c.header('WWW-Authenticate', 'Bearer')
  c.header('X-Request-Id', requestId)
  return c.json(errorBody(appError, requestId), statusOf(appError))
}
