/**
 * The one error type of the service and its closed list of codes (docs/decisions.md, "Errors").
 * Which HTTP status a code answers with is the HTTP layer's business (`http/errors.ts`).
 */
export const ERROR_CODES = [
  'invalid_request',
  'unauthorized',
  'forbidden',
  'plan_limit_reached',
  'not_found',
  'method_not_allowed',
  'post_not_editable',
  'approval_required',
  'invalid_transition',
  'post_changed',
  'nothing_to_retry',
  'idempotency_key_in_use',
  'payload_too_large',
  'unsupported_media_type',
  'schedule_time_required',
  'schedule_time_in_past',
  'queue_not_configured',
  'caption_too_long',
  'thread_too_long',
  'media_not_supported',
  'media_not_found',
  'account_not_found',
  'account_not_connected',
  'label_not_found',
  'name_taken',
  'pin_title_too_long',
  'title_too_long',
  'invalid_option',
  'action_not_supported',
  'comment_gone',
  'reply_unconfirmed',
  'idempotency_key_reused',
  'rate_limited',
  'internal_error',
  'service_unavailable',
  'storage_unavailable',
] as const

export type ErrorCode = (typeof ERROR_CODES)[number]

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
  readonly details: ErrorDetail[] | undefined
  /** Seconds, for answers that ask the caller to wait (`Retry-After`). */
  readonly retryAfterSec: number | undefined

  constructor(code: ErrorCode, message: string, options: { details?: ErrorDetail[]; retryAfterSec?: number } = {}) {
    super(message)
    this.name = 'AppError'
    this.code = code
    this.details = options.details
    this.retryAfterSec = options.retryAfterSec
  }
}

export const notFound = (what = 'Resource') => new AppError('not_found', `${what} not found.`)
