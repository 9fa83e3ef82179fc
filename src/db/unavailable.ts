import { AppError } from '../domain/errors'

/**
 * How long a caller is asked to wait when the database cannot be reached (`Retry-After`): about the
 * time a restarted PostgreSQL takes to accept connections again.
 */
export const DATABASE_RETRY_AFTER_SEC = 5

/** Socket errors of a connection that could not be made or broke (Node's `code`). */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
])

/**
 * SQLSTATEs that say the server is going away or not accepting connections yet: class 08
 * (connection exception), 57P01 admin_shutdown (`pg_terminate_backend`, a fast stop), 57P02
 * crash_shutdown, 57P03 cannot_connect_now (starting up, shutting down), 53300 too_many_connections.
 */
const unavailableState = (code: string) => /^08[0-9A-Z]{3}$/.test(code) || /^57P0[123]$/.test(code) || code === '53300'

/** node-postgres's own words for a connection that broke, timed out, or was ended under a query. */
const UNAVAILABLE_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect/,
  /^Client has encountered a connection error and is not queryable/,
  /^Connection ended unexpectedly/,
  /is not queryable/,
]

/**
 * Whether `err` (or what it wraps: Drizzle's query error keeps the driver's as `cause`; a dual-stack
 * connect fails with an AggregateError) says the database cannot be reached or the connection
 * broke, rather than that a statement was wrong. node-postgres and the Neon driver report these the
 * same way (Node's socket codes, SQLSTATEs, node-postgres's messages).
 */
export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 5) return false
  if (err instanceof DatabaseUnavailableError) return true
  if (err instanceof AppError) return false
  const e = err as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown }
  const code = typeof e.code === 'string' ? e.code : ''
  if (SOCKET_CODES.has(code) || unavailableState(code)) return true
  const message = typeof e.message === 'string' ? e.message : ''
  if (UNAVAILABLE_MESSAGES.some((re) => re.test(message))) return true
  if (Array.isArray(e.errors) && e.errors.some((x) => isDatabaseUnavailable(x, depth + 1))) return true
  return isDatabaseUnavailable(e.cause, depth + 1)
}

/** The answer to a request whose database work could not reach the database: 503, retry shortly. */
export class DatabaseUnavailableError extends AppError {
  constructor() {
    super('service_unavailable', `The database is unavailable; retry in ${DATABASE_RETRY_AFTER_SEC} s.`, {
      retryAfterSec: DATABASE_RETRY_AFTER_SEC,
    })
    this.name = 'DatabaseUnavailableError'
  }
}

/**
 * `err` as the AppError upper layers answer with when it says the database is unavailable (none of
 * the driver's text: it may name hosts), else null.
 */
export function databaseUnavailable(err: unknown): AppError | null {
  if (err instanceof DatabaseUnavailableError) return err
  return isDatabaseUnavailable(err) ? new DatabaseUnavailableError() : null
}
