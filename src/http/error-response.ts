import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { describeError } from '../infra/logger'
import { AppError } from '../domain/errors'
import { isDiskFull } from '../lib/disk-full'
import { serviceUnavailableFrom } from '../services/unavailable'
import { errorBody, statusOf } from './errors'
import type { AppEnv } from './context'

/** How long a refusal for a full disk asks the caller to wait: space comes back when someone frees it. */
export const DISK_FULL_RETRY_SEC = 60

/**
 * Turns anything thrown into the API's error body; unexpected errors become a bare 500. A full disk
 * (the database's or the media store's) is 503 `service_unavailable` saying so: nothing was stored.
 * A database that cannot be reached is a 503 with `Retry-After` too, never a 500.
 */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err
  if (isDiskFull(err))
    return new AppError(
      'service_unavailable',
      "The server's disk is full: nothing of this request was stored. Try again once space has been freed.",
      { retryAfterSec: DISK_FULL_RETRY_SEC },
    )
  const unavailable = serviceUnavailableFrom(err)
  if (unavailable) return unavailable
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

/**
 * What every error answer does first, whatever its body (the API's JSON, a dashboard page): the error
 * as an `AppError`, an unexpected one logged with the request id (never sent), `Retry-After` and
 * `X-Request-Id` set.
 */
export function prepareErrorAnswer(c: Context<AppEnv>, err: unknown): { appError: AppError; requestId: string } {
  const appError = toAppError(err)
  const requestId = c.get('requestId') ?? 'req_unknown'
  if (isDiskFull(err)) {
    c.get('deps')?.logger.error('disk_full', { requestId, method: c.req.method, path: c.req.path })
  } else if (appError.code === 'internal_error') {
    c.get('deps')?.logger.error('request_failed', {
      requestId,
      method: c.req.method,
      path: c.req.path,
      ...describeError(err),
    })
  }
  if (appError.retryAfterSec !== undefined) c.header('Retry-After', String(appError.retryAfterSec))
  c.header('X-Request-Id', requestId)
  return { appError, requestId }
}

export function errorResponse(c: Context<AppEnv>, err: unknown): Response {
  const { appError, requestId } = prepareErrorAnswer(c, err)
  // Every 401 names the API's scheme (RFC 7235); the token check may have said more already.
  if (statusOf(appError) === 401 && !c.res.headers.has('WWW-Authenticate')) c.header('WWW-Authenticate', 'Bearer')
  return c.json(errorBody(appError, requestId), statusOf(appError))
}
