/**
 * The one error type of the API and its closed list of codes (contract.md, "Errors").
 * Every non-200 answer is `{ error: { code, message, details?, requestId } }`.
 */
export const ERROR_STATUS = {
  invalid_request: 400,
  unauthorized: 401,
  plan_limit_reached: 403,
  not_found: 404,
  post_not_editable: 409,
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
  pin_title_too_long: 422,
  invalid_option: 422,
  idempotency_key_reused: 422,
  rate_limited: 429,
  internal_error: 500,
} as const

export type ErrorCode = keyof typeof ERROR_STATUS
export type ErrorStatus = (typeof ERROR_STATUS)[ErrorCode]
export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[]

/** One problem with a request: which field (`path`), and where relevant which platform and limit. */
export interface ErrorDetail {
  path: string
  message?: string
  platform?: string
  limit?: number
  actual?: number
  [extra: string]: unknown
}

export class AppError extends Error {
  readonly code: ErrorCode
  readonly status: ErrorStatus
  readonly details: ErrorDetail[] | undefined
  /** Seconds, for 429 answers (`Retry-After`). */
  readonly retryAfterSec: number | undefined

  constructor(code: ErrorCode, message: string, options: { details?: ErrorDetail[]; retryAfterSec?: number } = {}) {
    super(message)
    this.name = 'AppError'
    this.code = code
    this.status = ERROR_STATUS[code]
    this.details = options.details
    this.retryAfterSec = options.retryAfterSec
  }
}

export const notFound = (what = 'Resource') => new AppError('not_found', `${what} not found.`)

export interface ErrorBody {
  error: { code: ErrorCode; message: string; details?: ErrorDetail[]; requestId: string }
}

export function errorBody(err: AppError, requestId: string): ErrorBody {
  return {
    error: {
      code: err.code,
      message: err.message,
      ...(err.details && err.details.length > 0 ? { details: err.details } : {}),
      requestId,
    },
  }
}
