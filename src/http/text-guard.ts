import type { MiddlewareHandler } from 'hono'
import { AppError } from '../domain/errors'
import type { AppEnv } from './context'

/**
 * Text PostgreSQL cannot store: the NUL character, and UTF-16 surrogates without their pair (no
 * UTF-8 encoding exists for them). Refused at the boundary, so no request fails in the database.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

const unstorable = (text: string) => text.includes('\0') || LONE_SURROGATE.test(text)

/** The text with what cannot be stored replaced, to name a field in an answer. */
const printable = (text: string) => text.replaceAll('\0', '?').replace(new RegExp(LONE_SURROGATE, 'g'), '?')

const MESSAGE = 'contains a NUL character or an unpaired surrogate, which cannot be stored'

/** The first place in a parsed JSON value holding unstorable text (a key or a string), as a dotted path. */
function unstorableIn(value: unknown, path: string[]): string[] | null {
  if (typeof value === 'string') return unstorable(value) ? path : null
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = unstorableIn(item, [...path, String(i)])
      if (found) return found
    }
    return null
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (unstorable(key)) return [...path, printable(key)]
      const found = unstorableIn(item, [...path, key])
      if (found) return found
    }
  }
  return null
}

function decodedPath(path: string): string {
  try {
    return decodeURIComponent(path)
  } catch {
    return path
  }
}

/**
 * 404 for a path holding such text (no id contains it), 400 `invalid_request` naming the query
 * parameter or body field that does. A body that is not valid JSON is left to the validators.
 */
export const rejectUnstorableText = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  if (unstorable(decodedPath(c.req.path))) throw new AppError('not_found', 'Resource not found.')
  for (const [name, values] of Object.entries(c.req.queries())) {
    if (unstorable(name) || values.some(unstorable)) {
      const path = `query.${printable(name)}`
      throw new AppError('invalid_request', `Invalid request: ${path}: ${MESSAGE}.`, {
        details: [{ path, message: MESSAGE }],
      })
    }
  }
  if (/json/i.test(c.req.header('content-type') ?? '') && c.req.method !== 'GET') {
    let body: unknown
    try {
      body = await c.req.json()
    } catch {
      return next()
    }
    const found = unstorableIn(body, [])
    if (found) {
      const path = found.length > 0 ? found.join('.') : 'body'
      throw new AppError('invalid_request', `Invalid request: ${path}: ${MESSAGE}.`, {
        details: [{ path, message: MESSAGE }],
      })
    }
  }
  await next()
}
