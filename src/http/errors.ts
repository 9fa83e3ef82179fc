/**
 * The HTTP side of the service's errors: the status each code answers with, and the error body
 * `{ error: { code, message, details?, requestId } }` every non-200 answer carries.
 */
import type { AppError, ErrorCode, ErrorDetail } from '../domain/errors'

export const ERROR_STATUS = {
  invalid_request: 400,
  unauthorized: 401,
  forbidden: 403,
  plan_limit_reached: 403,
  not_found: 404,
  method_not_allowed: 405,
  post_not_editable: 409,
  approval_required: 409,
  invalid_transition: 409,
  post_changed: 409,
  nothing_to_retry: 409,
  idempotency_key_in_use: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  schedule_time_required: 422,
  schedule_time_in_past: 422,
  queue_not_configured: 422,
  caption_too_long: 422,
  thread_too_long: 422,
  media_not_supported: 422,
  media_not_found: 422,
  account_not_found: 422,
  account_not_connected: 422,
  label_not_found: 422,
  name_taken: 409,
  pin_title_too_long: 422,
  title_too_long: 422,
  invalid_option: 422,
  action_not_supported: 422,
  comment_gone: 409,
  reply_unconfirmed: 409,
  idempotency_key_reused: 422,
  rate_limited: 429,
  internal_error: 500,
  service_unavailable: 503,
  storage_unavailable: 503,
} as const satisfies Record<ErrorCode, number>

export type ErrorStatus = (typeof ERROR_STATUS)[ErrorCode]

export const statusOf = (err: AppError): ErrorStatus => ERROR_STATUS[err.code]

export interface ErrorBody {
  error: { code: ErrorCode; message: string; details?: ErrorDetail[]; requestId: string; retryAfterSec?: number }
}

export function errorBody(err: AppError, requestId: string): ErrorBody {
  return {
    error: {
      code: err.code,
      message: err.message,
      ...(err.details && err.details.length > 0 ? { details: err.details } : {}),
      requestId,
      // The wait `Retry-After` says, for a client that reads only the body.
      ...(err.retryAfterSec !== undefined ? { retryAfterSec: err.retryAfterSec } : {}),
    },
  }
}
