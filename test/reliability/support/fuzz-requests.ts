/**
 * One fuzzed request per operation of the OpenAPI document: path ids, query, headers and body from
 * the operation's own schemas (schema-arbitraries.ts), then bent: odd ids and query values, odd
 * content types, raw JSON edits (duplicate keys, truncation, deep nesting, bodies over the cap).
 */
import fc from 'fast-check'
import {
  arbitraryFor,
  Deep,
  type JsonSchema,
  mutated,
  nastyValue,
  type OpenApiDoc,
  PoolRef,
  RawJson,
  REF_KEY,
  ref,
  type SchemaContext,
  sometimes,
  Template,
} from './schema-arbitraries'

export interface Operation {
  /** `POST /v1/posts/{id}/publish`, as the document names it. */
  key: string
  method: string
  path: string
  spec: any
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete']

/** Every operation of the document. */
export const operationsOf = (doc: OpenApiDoc): Operation[] =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([m]) => METHODS.includes(m))
      .map(([m, spec]) => ({ key: `${m.toUpperCase()} ${path}`, method: m.toUpperCase(), path, spec })),
  )

type RawEdit =
  | { kind: 'none' }
  | { kind: 'duplicate'; key: number; last: boolean; value: unknown }
  | { kind: 'truncate'; at: number }
  | { kind: 'wrap'; before: string; after: string }
  | { kind: 'replace'; text: string }
  | { kind: 'deep'; depth: number }
  | { kind: 'overCap'; extra: number }

export interface FuzzRequest {
  op: string
  method: string
  /** Path segments: encoded text, or a pool id encoded when sent. */
  path: Array<string | PoolRef>
  /** `name=value` pieces, already encoded (or deliberately not). */
  query: string[]
  headers: Record<string, string>
  auth: 'token' | 'none' | 'unknown' | 'malformed'
  body: { type: string | null; value: unknown; edit: RawEdit } | null
}

const ODD_SEGMENTS = ['%00', 'post_%00x', '..', '.', '%2e%2e', '%2F', 'a%2Fb', '%ED%A0%80', '%', '%zz', '%20', ' ']
const ODD_IDS = ['__proto__', 'constructor', 'null', '0', '-1', 'acc_', 'x'.repeat(65), 'x'.repeat(5000), 'é😀пост']
const ODD_QUERY = ['', '%00', 'a%00b', '%ED%A0%80', '%', '%zz', '-1', '0', '1e309', '1.5', 'NaN', '0x10', '%20%205']
const ODD_QUERY_MORE = ['101', '99999999999999999999', 'DRAFT,SCHEDULED', 'draft', '__proto__', '[]', 'true']
const MALFORMED = ['', 'null', '[]', '"x"', '{', '{"a":1,}', "{'a':1}", 'NaN', '{"a":1}{"b":2}', '\u0000', 'undefined']
const MULTIPART = '--fz\r\nContent-Disposition: form-data; name="caption"\r\n\r\nhi\r\n--fz--\r\n'

const CONTENT_TYPES: Array<{ arbitrary: fc.Arbitrary<string | null>; weight: number }> = [
  { arbitrary: fc.constant('application/json'), weight: 30 },
  {
    arbitrary: fc.constantFrom('application/json; charset=utf-8', 'APPLICATION/JSON', 'application/ld+json'),
    weight: 3,
  },
  {
    arbitrary: fc.constantFrom('application/json;', 'application/json ; x=1', 'application/json;;', 'json'),
    weight: 2,
  },
  {
    arbitrary: fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=fz'),
    weight: 2,
  },
  { arbitrary: fc.constantFrom(null, '', '*/*', 'application/jsonp', 'application/json; charset=utf-16'), weight: 2 },
]

const pathFor = (path: string): fc.Arbitrary<Array<string | PoolRef>> => {
  const segments = path.split('/').slice(1)
  const pool = segments[1] ?? 'any'
  const id = fc.oneof(
    { arbitrary: ref(pool), weight: 12 },
    { arbitrary: ref('foreign'), weight: 1 },
    { arbitrary: ref('gone'), weight: 1 },
    { arbitrary: fc.constantFrom(...ODD_SEGMENTS), weight: 3 },
    { arbitrary: fc.constantFrom(...ODD_IDS).map(encodeURIComponent), weight: 2 },
    { arbitrary: fc.stringMatching(/^(post|acc|med)_[0-9A-Za-z]{22}$/), weight: 1 },
  )
  return fc.tuple(...segments.map((s) => (/^\{.+\}$/.test(s) ? id : fc.constant(s))))
}

const encode = (v: unknown) => {
  try {
    return encodeURIComponent(String(v))
  } catch {
    return '%ED%A0%80'
  }
}

function queryFor(ctx: SchemaContext, params: any[]): fc.Arbitrary<string[]> {
  const odd = fc.constantFrom(...ODD_QUERY, ...ODD_QUERY_MORE)
  const one = (p: any) =>
    fc.oneof(
      { arbitrary: arbitraryFor(ctx, p.schema as JsonSchema, p.name).map(encode), weight: 8 },
      { arbitrary: odd, weight: 2 },
      { arbitrary: fc.constant('x'.repeat(5000)), weight: 1 },
    )
  const known = params.map((p) =>
    fc.option(
      one(p).map((v) => [`${p.name}=${v}`]),
      { freq: 2, nil: [] as string[] },
    ),
  )
  const extra = sometimes(
    6,
    fc.oneof(
      fc
        .tuple(fc.constantFrom(...params.map((p) => p.name), 'unknown', '', '%00', '__proto__'), odd)
        .map(([k, v]) => [`${k}=${v}`]),
      fc.constantFrom(['&&'], ['='], ['flag'], ['a=1&a=2']),
    ),
    [] as string[],
  )
  return fc.tuple(...known, extra).map((parts) => parts.flat())
}

function headersFor(ctx: SchemaContext, params: any[]): fc.Arbitrary<Record<string, string>> {
  const entries = params.map((p) => {
    const value: fc.Arbitrary<unknown> = ctx.hints[p.name] ?? arbitraryFor(ctx, p.schema as JsonSchema, p.name)
    return fc.option(
      value.map((v): [string, string] => [p.name, String(v)]),
      { freq: 2, nil: null },
    )
  })
  return fc.tuple(...entries).map((list) => Object.fromEntries(list.filter((e): e is [string, string] => e !== null)))
}

const rawEdit: fc.Arbitrary<RawEdit> = fc.oneof(
  { arbitrary: fc.constant({ kind: 'none' as const }), weight: 24 },
  {
    arbitrary: fc
      .record({ key: fc.nat(20), last: fc.boolean(), value: nastyValue() })
      .map((r) => ({ kind: 'duplicate' as const, ...r })),
    weight: 3,
  },
  { arbitrary: fc.double({ min: 0, max: 1, noNaN: true }).map((at) => ({ kind: 'truncate' as const, at })), weight: 1 },
  {
    arbitrary: fc
      .constantFrom(['\ufeff', ''], ['', ','], ['', '}'], ['[', ']'], ['', '\u0000'], [' \n\t', ' '])
      .map(([before, after]) => ({ kind: 'wrap' as const, before: before!, after: after! })),
    weight: 1,
  },
  { arbitrary: fc.constantFrom(...MALFORMED).map((text) => ({ kind: 'replace' as const, text })), weight: 1 },
  { arbitrary: fc.constantFrom(1000, 20_000, 300_000).map((depth) => ({ kind: 'deep' as const, depth })), weight: 1 },
  { arbitrary: fc.constantFrom(1, 100, 70_000).map((extra) => ({ kind: 'overCap' as const, extra })), weight: 1 },
)

function bodyFor(ctx: SchemaContext, spec: any): fc.Arbitrary<FuzzRequest['body']> {
  const schema = spec.requestBody?.content?.['application/json']?.schema
  if (!schema) {
    return sometimes(6, fc.record({ type: fc.oneof(...CONTENT_TYPES), value: nastyValue(), edit: rawEdit }), null)
  }
  const valid = arbitraryFor(ctx, schema)
  const value = fc.oneof(
    { arbitrary: valid, weight: 6 },
    { arbitrary: valid.chain(mutated), weight: 4 },
    { arbitrary: valid.chain(mutated).chain(mutated), weight: 1 },
  )
  return fc.record({ type: fc.oneof(...CONTENT_TYPES), value, edit: rawEdit })
}

const auth = fc.oneof(
  { arbitrary: fc.constant('token' as const), weight: 60 },
  { arbitrary: fc.constantFrom('none' as const, 'unknown' as const, 'malformed' as const), weight: 1 },
)

/** The fuzzed requests of one operation. */
export function requestsFor(ctx: SchemaContext, op: Operation): fc.Arbitrary<FuzzRequest> {
  const params: any[] = op.spec.parameters ?? []
  return fc.record({
    op: fc.constant(op.key),
    method: fc.constant(op.method),
    path: pathFor(op.path),
    query: queryFor(
      ctx,
      params.filter((p) => p.in === 'query'),
    ),
    headers: headersFor(
      ctx,
      params.filter((p) => p.in === 'header'),
    ),
    auth,
    body: bodyFor(ctx, op.spec),
  })
}

/** Looks a pool value up: the `index`-th (modulo) value of the workspace's pool. */
export type Pick = (pool: string, index: number) => string

/** JSON text of a value with its placeholders resolved; `RawJson` goes in as it is. */
export function toJsonText(value: unknown, pick: Pick): string {
  if (value instanceof RawJson) return value.text
  if (value instanceof Deep) return value.toJson()
  if (value instanceof PoolRef) return JSON.stringify(pick(value.pool, value.index))
  if (value instanceof Template) return JSON.stringify(resolveTemplate(value, pick))
  if (Array.isArray(value)) return `[${value.map((v) => toJsonText(v, pick)).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value).map((k) => {
      const m = REF_KEY.exec(k)
      const key = m ? pick(m[1]!, Number(m[2])) : k
      return `${JSON.stringify(key)}:${toJsonText((value as any)[k], pick)}`
    })
    return `{${entries.join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}

export const resolveTemplate = (t: Template, pick: Pick) =>
  t.parts.map((p) => (typeof p === 'string' ? p : pick(p.pool, p.index))).join('')

function applyEdit(text: string, edit: RawEdit, value: unknown, pick: Pick, maxBytes: number): string {
  switch (edit.kind) {
    case 'none':
      return text
    case 'duplicate': {
      const keys = value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value) : []
      if (keys.length === 0 || !text.startsWith('{')) return text
      const pair = `${JSON.stringify(keys[edit.key % keys.length])}:${toJsonText(edit.value, pick)}`
      return edit.last ? `${text.slice(0, -1)},${pair}}` : `{${pair},${text.slice(1)}`
    }
    case 'truncate':
      return text.slice(0, Math.floor(text.length * edit.at))
    case 'wrap':
      return `${edit.before}${text}${edit.after}`
    case 'replace':
      return edit.text
    case 'deep': {
      const rest = text.startsWith('{') && text !== '{}' ? text.slice(1) : '"y":1}'
      return `{"x":${'['.repeat(edit.depth)}${']'.repeat(edit.depth)},${rest}`
    }
    case 'overCap':
      return `${text}${' '.repeat(Math.max(0, maxBytes - Buffer.byteLength(text)) + edit.extra)}`
  }
}

/** The URL and init to send, with the workspace's values and the given token and client address. */
export function render(req: FuzzRequest, pick: Pick, token: string, ip: string, maxBytes: number) {
  const segments = req.path.map((s) => (s instanceof PoolRef ? encode(pick(s.pool, s.index)) : s))
  const url = `/${segments.join('/')}${req.query.length > 0 ? `?${req.query.join('&')}` : ''}`
  const headers: Record<string, string> = { 'x-forwarded-for': ip, ...req.headers }
  if (req.auth === 'token') headers.authorization = `Bearer ${token}`
  if (req.auth === 'unknown') headers.authorization = `Bearer sps_${'A'.repeat(43)}`
  if (req.auth === 'malformed') headers.authorization = `Basic ${token}`
  let text: string | undefined
  let body: string | ArrayBuffer | undefined
  if (req.body && req.method !== 'GET') {
    const json = req.body.type?.startsWith('multipart/') ? MULTIPART : toJsonText(req.body.value, pick)
    body = text = applyEdit(json, req.body.edit, req.body.value, pick, maxBytes)
    // Bytes, since a string body would get `text/plain` from the Request itself: no content type at all.
    if (req.body.type === null) body = new TextEncoder().encode(text).buffer as ArrayBuffer
    else headers['content-type'] = req.body.type
  }
  return { url, text, init: { method: req.method, headers, ...(body !== undefined ? { body } : {}) } }
}
