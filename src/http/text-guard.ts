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

/** A place in a parsed JSON value: its key under its parent (`null` for the root). */
interface Place {
  value: unknown
  key: string | null
  parent: Place | null
}

const pathOf = (place: Place | null): string[] => {
  const path: string[] = []
  for (let p = place; p && p.key !== null; p = p.parent) path.push(p.key)
  return path.reverse()
}

/**
 * The first place in a parsed JSON value holding unstorable text (a key or a string), as a dotted
 * path. Walked with a stack of its own, not recursion: a body nested a hundred thousand levels deep
 * fits in the size cap and would overflow the call stack.
 */
function unstorableIn(root: unknown): string[] | null {
  const stack: Place[] = [{ value: root, key: null, parent: null }]
  while (stack.length > 0) {
    const place = stack.pop()!
    const { value, key } = place
    if (key !== null && unstorable(key)) return [...pathOf(place.parent), printable(key)]
    if (typeof value === 'string') {
      if (unstorable(value)) return pathOf(place)
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], key: String(i), parent: place })
    } else if (value !== null && typeof value === 'object') {
      const entries = Object.entries(value)
      for (let i = entries.length - 1; i >= 0; i--)
        stack.push({ value: entries[i]![1], key: entries[i]![0], parent: place })
    }
  }
  return null
}

/**
 * The dotted place of the first text in a parsed JSON value that cannot be stored ('' for the value
 * itself), or null: for callers that receive JSON another way than as a request body (MCP tool arguments).
 */
export function unstorableTextPath(value: unknown): string | null {
  const found = unstorableIn(value)
  return found === null ? null : found.join('.')
}

export const UNSTORABLE_TEXT_MESSAGE = MESSAGE

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
    const found = unstorableIn(body)
    if (found) {
      const path = found.length > 0 ? found.join('.') : 'body'
      throw new AppError('invalid_request', `Invalid request: ${path}: ${MESSAGE}.`, {
        details: [{ path, message: MESSAGE }],
      })
    }
  }
  await next()
}
