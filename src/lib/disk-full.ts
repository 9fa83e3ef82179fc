/**
 * Whether an error (or one of its causes) says the disk is full: PostgreSQL's `disk_full` (SQLSTATE
 * 53100, PGlite's "could not extend file ...: No space left on device" as much as a server's) or a
 * file write's ENOSPC. The drivers wrap errors (Drizzle's query error has the driver's as `cause`).
 */
export function isDiskFull(err: unknown): boolean {
  let current: unknown = err
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown }
    if (code === '53100' || code === 'ENOSPC') return true
    if (typeof message === 'string' && message.includes('No space left on device')) return true
    current = cause
  }
  return false
}
