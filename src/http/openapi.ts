import { z } from '@hono/zod-openapi'
import type { Hook, OpenAPIHono, RouteConfig } from '@hono/zod-openapi'
import type { Permission } from '../domain/access'
import { AppError, ERROR_CODES, type ErrorDetail } from '../domain/errors'
import { ERROR_STATUS } from './errors'
import type { AppEnv } from './context'

export const ErrorDetailSchema = z
  .object({
    path: z
      .string()
      .openapi({ description: 'The field concerned, dotted (`captionOverrides.MICROBLOG_NET`, `threadParts.2`).' }),
    message: z.string().optional(),
    platform: z.string().optional().openapi({ description: 'The platform id whose rule was broken, where one was.' }),
    limit: z.number().optional(),
    actual: z.number().optional(),
  })
  .catchall(z.unknown())
  .openapi('ErrorDetail')

export const ErrorSchema = z
  .object({
    error: z.object({
      code: z.enum(ERROR_CODES),
      message: z.string().openapi({ description: 'What went wrong, in words a person can act on.' }),
      details: z.array(ErrorDetailSchema).optional().openapi({ description: 'One entry per problem.' }),
      requestId: z.string().openapi({ example: 'req_4fQk2W9xYb7TzL0aPc3D' }),
      retryAfterSec: z
        .number()
        .int()
        .min(0)
        .optional()
        .openapi({ description: 'On 429 and 503: the seconds `Retry-After` says to wait before trying again.' }),
    }),
  })
  .openapi('Error')

const STATUS_TEXT: Record<number, string> = {
  400: 'Malformed JSON, wrong type, unknown enum value or missing field (`invalid_request`), one `details` entry per problem.',
  401: 'Missing, malformed, unknown or revoked token (`unauthorized`).',
  403: "A plan cap would be exceeded (`plan_limit_reached`), or the token's role lacks the operation's permission (`forbidden`).",
  404: 'Unknown route, or an id that is not in your workspace (`not_found`).',
  405: 'A known path with another method (`method_not_allowed`); `Allow` lists the methods it takes.',
  409: 'The resource is in a state that does not allow this, or a request with the same Idempotency-Key is still running.',
  413: 'Body over the documented cap (`payload_too_large`).',
  415: 'Body without `Content-Type: application/json` (`unsupported_media_type`).',
  422: 'A well-formed request that breaks a rule; `details` names each field and platform concerned.',
  429: 'Over the rate limit (`rate_limited`); `Retry-After` says how many seconds to wait.',
  500: 'A bug on our side (`internal_error`); the request id identifies it.',
  503: "The service cannot answer now: more requests arrived than it can answer in time (`service_unavailable`; Node on the embedded database; nothing of the request was done), its database cannot be reached (`service_unavailable`; PostgreSQL restarting, connections cut), the server's disk is full (`service_unavailable`; nothing of the request was stored), or the media store failed or did not answer in time (`storage_unavailable`; nothing was registered). `Retry-After` and `retryAfterSec` say how many seconds to wait.",
}

const codesFor = (status: number) => ERROR_CODES.filter((c) => ERROR_STATUS[c] === status)

const integerHeader = (description: string) => ({ description, schema: { type: 'integer' as const, minimum: 0 } })

/** The response headers the app sends (http/rate-limit.ts, request-id.ts, error-response.ts, idempotency.ts). */
const RESPONSE_HEADERS = {
  'RateLimit-Limit': integerHeader("Requests allowed per minute from this client IP in the operation's bucket."),
  'RateLimit-Remaining': integerHeader('Requests left in the current window.'),
  'RateLimit-Reset': integerHeader('Seconds until the current window ends.'),
  'X-Request-Id': {
    description: "The request's id: the one you sent (1-128 characters of `[A-Za-z0-9._:-]`), else a new one.",
    schema: { type: 'string' as const, example: 'req_4fQk2W9xYb7TzL0aPc3D' },
  },
  'Retry-After': integerHeader('Seconds to wait before trying again.'),
  'WWW-Authenticate': {
    description: 'The scheme the API takes: `Bearer`.',
    schema: { type: 'string' as const, example: 'Bearer' },
  },
  'Idempotent-Replayed': {
    description: 'Present (`true`) when this answer is the replay of an earlier one with the same `Idempotency-Key`.',
    schema: { type: 'string' as const, enum: ['true'] },
  },
}
type ResponseHeader = keyof typeof RESPONSE_HEADERS

/** Puts the response headers in `components.headers`, where every response refers to them. */
export function registerResponseHeaders(registry: OpenAPIHono<AppEnv>['openAPIRegistry']): void {
  for (const [name, header] of Object.entries(RESPONSE_HEADERS)) registry.registerComponent('headers', name, header)
}

const EVERY_ANSWER: ResponseHeader[] = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'X-Request-Id']
const headers = (...names: ResponseHeader[]) =>
  Object.fromEntries(names.map((n) => [n, { $ref: `#/components/headers/${n}` }]))
const EXTRA_HEADERS: Record<number, ResponseHeader[]> = {
  401: ['WWW-Authenticate'],
  429: ['Retry-After'],
  503: ['Retry-After'],
}

function errorResponse(status: number) {
  return {
    description: `${STATUS_TEXT[status]} Codes: ${codesFor(status).join(', ')}.`,
    headers: headers(...EVERY_ANSWER, ...(EXTRA_HEADERS[status] ?? [])),
    content: { 'application/json': { schema: ErrorSchema } },
  }
}

/**
 * The error answers every authenticated route can give, plus the route's own (403, 409, 422...).
 * 413 and 415 are added by `documentOperation` to the operations that take a body.
 */
export function errorResponses(...extra: Array<403 | 409 | 413 | 415 | 422>) {
  const statuses = [400, 401, 404, 429, 500, 503, ...extra].sort()
  return Object.fromEntries([...new Set(statuses)].map((s) => [s, errorResponse(s)]))
}

export const jsonResponse = <T extends z.ZodType>(schema: T, description: string) => ({
  200: { description, headers: headers(...EVERY_ANSWER), content: { 'application/json': { schema } } },
})

/**
 * What the app adds to every operation's description when it registers it (routes/index.ts), so a
 * route file cannot forget it: 413 and 415 where the operation takes a body, the headers every
 * answer carries on every response, and `Idempotent-Replayed` on the 200 of an operation that
 * takes an `Idempotency-Key`, and the permission it requires (with 403 where a role may lack it).
 */
export function documentOperation<R extends RouteConfig>(
  route: R,
  options: { idempotent: boolean; permission: Permission },
): R {
  const responses: RouteConfig['responses'] = { ...route.responses }
  if (route.request?.body) Object.assign(responses, errorResponses(413, 415))
  // Every role may read; any other permission is refused to some role (403 `forbidden`).
  if (options.permission !== 'read') responses[403] ??= errorResponse(403)
  for (const [status, response] of Object.entries(responses)) {
    const names = [...EVERY_ANSWER, ...(EXTRA_HEADERS[Number(status)] ?? [])]
    if (status === '200' && options.idempotent) names.push('Idempotent-Replayed')
    const own = (response as { headers?: object }).headers
    responses[status] = { ...response, headers: { ...own, ...headers(...names) } } as typeof response
  }
  const sorted = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)))
  const required = `Requires the \`${options.permission}\` permission.`
  const description = route.description ? `${route.description}\n\n${required}` : required
  return { ...route, description, responses: sorted }
}

export const jsonBody = <T extends z.ZodType>(schema: T, description?: string) => ({
  required: true,
  ...(description ? { description } : {}),
  content: { 'application/json': { schema } },
})

export const SECURITY = [{ bearerAuth: [] }]

interface Issue {
  path: ReadonlyArray<PropertyKey>
  message: string
  /** Each option's issues, when no option of a union matched (`invalid_union`). */
  errors?: ReadonlyArray<ReadonlyArray<Issue>>
}

/**
 * A union that matched no option (such as `POST /v1/media`'s two bodies) is reported as the
 * option that came closest (the fewest issues; the first on a tie), never as a bare "Invalid input".
 */
function flattenUnions(issues: ReadonlyArray<Issue>): Issue[] {
  return issues.flatMap((i) => {
    if (!i.errors?.length) return [i]
    const closest = i.errors.reduce((best, option) => (option.length < best.length ? option : best))
    return flattenUnions(closest.map((inner) => ({ ...inner, path: [...i.path, ...inner.path] })))
  })
}

/** zod's issues as one `details` entry per problem (400 `invalid_request`). */
export function issuesToDetails(issues: ReadonlyArray<Issue>, prefix?: string): ErrorDetail[] {
  return flattenUnions(issues).map((i) => {
    const path = [prefix, ...i.path.map(String)].filter(Boolean).join('.')
    return { path: path || 'body', message: i.message }
  })
}

/** Validation failures of any request part become 400 `invalid_request`, one `details` entry per problem. */
export const validationHook: Hook<unknown, AppEnv, string, unknown> = (result) => {
  if (!result.success) {
    const where = result.target === 'json' ? undefined : result.target
    throw invalidRequest(
      issuesToDetails(result.error.issues, where === 'param' || where === 'query' ? where : undefined),
    )
  }
}

/** 400 `invalid_request` for what a schema refused, one `details` entry per problem (the MCP tools say the same). */
export function invalidRequest(details: ErrorDetail[]): AppError {
  return new AppError(
    'invalid_request',
    details.length === 1
      ? `Invalid request: ${details[0]!.path}: ${details[0]!.message}`
      : `Invalid request: ${details.length} problems, listed in details.`,
    { details },
  )
}

/** The optional `Idempotency-Key` header of routes that create things. */
export const IdempotencyHeaders = z.object({
  'idempotency-key': z
    .string()
    .optional()
    .openapi({
      param: { name: 'idempotency-key', in: 'header' },
      description:
        'Any unique string (1-255 visible ASCII characters, a UUID is ideal). The first successful answer is replayed for 24 h with `Idempotent-Replayed: true`; the same key with another body is 422 `idempotency_key_reused`.',
    }),
})
