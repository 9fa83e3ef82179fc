/**
 * One JSON object per line. Callers pass plain facts (ids, codes, durations); never a request body,
 * a token, credentials, an SQL text or a stack trace.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent'
export type LogFields = Record<string, string | number | boolean | null | undefined>

export interface Logger {
  debug(event: string, fields?: LogFields): void
  info(event: string, fields?: LogFields): void
  warn(event: string, fields?: LogFields): void
  error(event: string, fields?: LogFields): void
}

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 }

export function createLogger(level: LogLevel = 'info', write: (line: string) => void = (l) => console.log(l)): Logger {
  const emit = (at: Exclude<LogLevel, 'silent'>, event: string, fields?: LogFields) => {
    if (ORDER[at] < ORDER[level]) return
    write(JSON.stringify({ time: new Date().toISOString(), level: at, event, ...fields }))
  }
  return {
    debug: (e, f) => emit('debug', e, f),
    info: (e, f) => emit('info', e, f),
    warn: (e, f) => emit('warn', e, f),
    error: (e, f) => emit('error', e, f),
  }
}

/** What may be logged about an unexpected error: its class and a driver error code, never its text. */
export function describeError(err: unknown): LogFields {
  if (!(err instanceof Error)) return { errorType: typeof err }
  const code = (err as { code?: unknown }).code ?? (err as { cause?: { code?: unknown } }).cause?.code
  return { errorType: err.name, ...(typeof code === 'string' ? { errorCode: code } : {}) }
}
