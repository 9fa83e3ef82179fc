import type { Context, MiddlewareHandler } from 'hono'
import { AppError } from '../domain/errors'
import type { AppEnv } from './context'
import { decodedPath, printable, UNSTORABLE_TEXT_MESSAGE, unstorable, unstorableTextPath } from './text-guard'

/**
 * What a request outside `/v1` may not carry, found the same way for every page and form there (the
 * dashboard, hosted connect, the sandbox network's pages, the agents' OAuth endpoints): text the
 * database cannot store (the rule `/v1` and MCP apply, text-guard.ts) in the address, the query, a
 * form or JSON field; and a form body that cannot be parsed (multipart without its boundary, a broken
 * multipart body). Each site answers the problem in its own kind: a page, OAuth's error JSON.
 */
export type InputProblem =
  /** The path holds such text: no page or id contains it. */
  | { kind: 'address' }
  /** `path` is `query.<name>`, a form field's name, a JSON body's dotted path, or `body` for the body itself. */
  | { kind: 'field'; path: string; message: string }

export const UNREADABLE_FORM_MESSAGE =
  'could not be read (a multipart body needs its boundary in the Content-Type header)'

/** A refused field in words, for a page or an error description: `The field “email” contains a NUL character ...`. */
export function describeProblem(problem: { path: string; message: string }): string {
  if (problem.path === 'body') return `The body ${problem.message}.`
  if (problem.path.startsWith('query.')) return `The query parameter “${problem.path.slice(6)}” ${problem.message}.`
  return `The field “${problem.path}” ${problem.message}.`
}

type FieldProblem = Extract<InputProblem, { kind: 'field' }>

const fieldProblem = (path: string, message = UNSTORABLE_TEXT_MESSAGE): FieldProblem => ({
  kind: 'field',
  path,
  message,
})

/** The path and query: an address problem, a query parameter, or null. */
export function addressProblem(c: Context): InputProblem | null {
  if (unstorable(decodedPath(c.req.path))) return { kind: 'address' }
  for (const [name, values] of Object.entries(c.req.queries())) {
    if (unstorable(name) || values.some(unstorable)) return fieldProblem(`query.${printable(name)}`)
  }
  return null
}

const FORM_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data'])

/**
 * The form as the handlers will parse it (Hono's `parseBody`: the media type lower-cased, then the
 * platform's `FormData` parser), from a copy of the request's bytes.
 */
async function parsedForm(c: Context, type: string): Promise<FormData> {
  const contentType = (c.req.header('content-type') ?? '').replace(/^[^;]+/, () => type)
  const bytes = await c.req.raw.clone().arrayBuffer()
  return new Response(bytes, { headers: { 'Content-Type': contentType } }).formData()
}

/** The first field of a form whose name, text or file name cannot be stored. */
function formFieldProblem(form: FormData): InputProblem | null {
  for (const [name, value] of form) {
    if (unstorable(name) || unstorable(typeof value === 'string' ? value : value.name))
      return fieldProblem(printable(name))
  }
  return null
}

/**
 * The body, read from a copy of the request (the handler and the body limits after this read the
 * original): a form that cannot be parsed or a field of a form or of a JSON body holding such text.
 * A JSON body that does not parse is left to the handler, which answers it in its own words.
 */
export async function bodyProblem(c: Context): Promise<InputProblem | null> {
  if (c.req.method === 'GET' || c.req.method === 'HEAD' || !c.req.raw.body) return null
  const type = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
  if (FORM_TYPES.has(type)) {
    try {
      return formFieldProblem(await parsedForm(c, type))
    } catch {
      return fieldProblem('body', UNREADABLE_FORM_MESSAGE)
    }
  }
  if (!type.includes('json')) return null
  let json: unknown
  try {
    json = await c.req.raw.clone().json()
  } catch {
    return null
  }
  const path = unstorableTextPath(json)
  return path === null ? null : fieldProblem(path === '' ? 'body' : path)
}

/** How a site answers a problem: its 404 for an address, its refusal (a 400 of its kind) for a field. */
export interface InputAnswers {
  notFound(c: Context<AppEnv>): Response | Promise<Response>
  refuse(c: Context<AppEnv>, problem: FieldProblem): Response | Promise<Response>
}

/** The guard in front of a site outside `/v1`: nothing it refuses reaches a handler or the database. */
export const guardInput =
  (answers: InputAnswers): MiddlewareHandler<AppEnv> =>
  async (c, next) => {
    const problem = addressProblem(c) ?? (await bodyProblem(c))
    if (problem === null) return next()
    return problem.kind === 'address' ? answers.notFound(c) : answers.refuse(c, problem)
  }

const invalidRequest = (problem: FieldProblem) =>
  new AppError('invalid_request', `Invalid request: ${problem.path}: ${problem.message}.`, {
    details: [{ path: problem.path, message: problem.message }],
  })

/**
 * `/v1`'s guard: 404 for an address holding such text (no id contains it), 400 `invalid_request` in the
 * contract's body naming the query parameter or JSON field that does. The body is read through the
 * request's own cache (the validators after it read the same parse); JSON that does not parse is left
 * to them.
 */
export const rejectUnstorableText = (): MiddlewareHandler<AppEnv> => async (c, next) => {
  const problem = addressProblem(c)
  if (problem?.kind === 'address') throw new AppError('not_found', 'Resource not found.')
  if (problem) throw invalidRequest(problem)
  if (/json/i.test(c.req.header('content-type') ?? '') && c.req.method !== 'GET') {
    let body: unknown
    try {
      body = await c.req.json()
    } catch {
      return next()
    }
    const path = unstorableTextPath(body)
    if (path !== null) throw invalidRequest(fieldProblem(path === '' ? 'body' : path))
  }
  await next()
}
