/**
 * The OpenAPI document read as the tenant matrix needs it: every operation, and every place in it
 * that carries an id (path and query parameters, header keys, request-body properties, record keys,
 * ids written inside an example text such as a CSV). A place is found from the schema alone:
 * `x-id-of` / `x-key-id-of` vendor extensions, else a name ending in `Id` / `Ids` (`key` for a
 * header), else an example whose value is a prefixed id (`acc_…`). Minimal valid values are built
 * from the schemas too, so a route added later is covered without editing the matrix.
 */
import { ID_PREFIX } from '../../../src/lib/ids'

export type JsonSchema = Record<string, any>
export interface OpenApiDoc {
  paths: Record<string, Record<string, any>>
  components?: { schemas?: Record<string, JsonSchema> }
}

export interface Operation {
  key: string
  method: string
  path: string
  spec: any
}

/** How the id sits in its place: the whole value, an array item, a record key, or a token inside a text. */
export type PlaceForm = 'value' | 'item' | 'key' | 'template'

export interface IdPlace {
  in: 'path' | 'query' | 'header' | 'body'
  /** Parameter name, or the body path with `[]` for array items and `*` for record values. */
  at: string[]
  form: PlaceForm
  /** What the id names: `account`, `post`, `media`, `board`, `idempotency-key`, … (`network`: not ours). */
  kind: string
  /** For a template: the example text and the id token it holds. */
  template?: { text: string; token: string }
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete']
const ID_TOKEN = /\b([a-z]+)_[0-9A-Za-z]{22}\b/g
const KIND_OF_PREFIX: Record<string, string> = Object.fromEntries(Object.entries(ID_PREFIX).map(([k, p]) => [p, k]))

export const placeName = (p: IdPlace) => `${p.in}:${p.at.join('.')}${p.form === 'key' ? '{key}' : ''}`

export const operationsOf = (doc: OpenApiDoc): Operation[] =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([m]) => METHODS.includes(m))
      .map(([m, spec]) => ({ key: `${m.toUpperCase()} ${path}`, method: m.toUpperCase(), path, spec })),
  )

export function resolve(doc: OpenApiDoc, schema: JsonSchema | undefined): JsonSchema {
  let s = schema ?? {}
  for (let i = 0; s.$ref && i < 10; i++) s = doc.components?.schemas?.[String(s.$ref).split('/').pop()!] ?? {}
  return s
}

const typesOf = (s: JsonSchema): string[] => (Array.isArray(s.type) ? s.type : s.type ? [s.type] : [])
const kindOfPrefix = (value: unknown) => {
  const m = typeof value === 'string' ? /^([a-z]+)_[0-9A-Za-z]{22}$/.exec(value) : null
  return m ? (KIND_OF_PREFIX[m[1]!] ?? m[1]!) : null
}
const kindOfName = (name: string, suffix: RegExp) => name.replace(suffix, '').replace(/[A-Z]/g, (c) => `-${c}`)

/** The id kinds written inside an example text (`accountIds,caption\nacc_…|acc_…`), one place per kind. */
function templatePlaces(text: unknown, at: string[]): IdPlace[] {
  if (typeof text !== 'string') return []
  const tokens = new Map<string, string>()
  for (const m of text.matchAll(ID_TOKEN)) {
    const kind = KIND_OF_PREFIX[m[1]!] ?? m[1]!
    if (!tokens.has(kind)) tokens.set(kind, m[0])
  }
  return [...tokens].map(([kind, token]) => ({ in: 'body', at, form: 'template', kind, template: { text, token } }))
}

/** Every id place of a request body schema (depth-limited; `$ref`s resolved). */
function bodyPlaces(doc: OpenApiDoc, raw: JsonSchema, at: string[], example: unknown, depth: number): IdPlace[] {
  const s = resolve(doc, raw)
  if (depth > 8) return []
  const name = [...at].reverse().find((p) => p !== '[]' && p !== '*') ?? ''
  const out: IdPlace[] = []
  const own = s['x-id-of'] ?? raw['x-id-of']
  const types = typesOf(s)
  if (own) out.push({ in: 'body', at, form: at.at(-1) === '[]' ? 'item' : 'value', kind: own })
  else if (types.includes('array') && /Ids$/.test(name) && at.at(-1) === name)
    out.push({ in: 'body', at: [...at, '[]'], form: 'item', kind: kindOfName(name, /Ids$/) })
  else if (types.includes('string') && /Id$/.test(name) && at.at(-1) === name)
    out.push({ in: 'body', at, form: 'value', kind: kindOfName(name, /Id$/) })
  else if (types.includes('string')) out.push(...templatePlaces(s.example ?? example, at))
  const keyKind = s['x-key-id-of'] ?? raw['x-key-id-of']
  if (keyKind) out.push({ in: 'body', at, form: 'key', kind: keyKind })
  for (const [prop, sub] of Object.entries<JsonSchema>(s.properties ?? {})) {
    const ex = s.example && typeof s.example === 'object' ? s.example[prop] : undefined
    out.push(...bodyPlaces(doc, sub, [...at, prop], ex, depth + 1))
  }
  if (s.additionalProperties && typeof s.additionalProperties === 'object')
    out.push(...bodyPlaces(doc, s.additionalProperties, [...at, '*'], undefined, depth + 1))
  if (s.items && !out.some((p) => p.form === 'item' && p.at.length === at.length + 1))
    out.push(...bodyPlaces(doc, s.items, [...at, '[]'], undefined, depth + 1))
  for (const alt of [...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])])
    out.push(...bodyPlaces(doc, alt, at, example, depth + 1))
  return out
}

/** A parameter's id kind: its `x-id-of`, its name (`folderId`, a header `…-key`), or its example's prefix. */
function parameterKind(p: any): string | null {
  const s = p.schema ?? {}
  const marked = s['x-id-of'] ?? p['x-id-of']
  if (marked) return marked
  if (p.in === 'header') return /(^|-)(id|key)$/i.test(p.name) ? p.name.toLowerCase() : null
  if (/Ids?$/.test(p.name)) return kindOfName(p.name, /Ids?$/)
  const byExample = kindOfPrefix(s.example ?? p.example)
  if (byExample) return byExample
  // A value of a closed list (a platform id) names no resource of any workspace.
  if (Array.isArray(s.enum)) return null
  return p.in === 'path' ? `unknown path parameter ${p.name}` : null
}

export const bodySchemaOf = (op: Operation): JsonSchema | null =>
  op.spec.requestBody?.content?.['application/json']?.schema ?? null

/** Every id place of an operation, ours and the network's (`kind: 'network'`). */
export function idPlacesOf(doc: OpenApiDoc, op: Operation): IdPlace[] {
  const places: IdPlace[] = []
  for (const p of op.spec.parameters ?? []) {
    const kind = parameterKind(p)
    if (kind) places.push({ in: p.in, at: [p.name], form: 'value', kind })
  }
  const body = bodySchemaOf(op)
  if (body) places.push(...bodyPlaces(doc, body, [], undefined, 0).filter((p) => p.at.length > 0))
  const seen = new Set<string>()
  return places.filter((p) => !seen.has(placeName(p)) && seen.add(placeName(p)))
}

/** Path parameters of an operation (every one needs a value, the place's or a host id). */
export const pathParamsOf = (op: Operation): Array<{ name: string; kind: string }> =>
  (op.spec.parameters ?? [])
    .filter((p: any) => p.in === 'path')
    .map((p: any) => ({ name: p.name, kind: parameterKind(p) ?? `unknown path parameter ${p.name}` }))

/** Fills id spots that are not the place under test: an id of the caller's own of that kind. */
export type HostIds = (kind: string) => string

const FUTURE = new Date(Date.now() + 30 * 86_400_000).toISOString()

/** A minimal valid value of a schema: required properties only, an enum's example or first value, examples where given. */
export function minimal(doc: OpenApiDoc, raw: JsonSchema, host: HostIds, name = '', example?: unknown): unknown {
  const s = resolve(doc, raw)
  const marked = s['x-id-of'] ?? raw['x-id-of']
  if (marked && marked !== 'network') return host(marked)
  if (s.default !== undefined) return s.default
  // An enum's own example, when it is one of its values, is the value a request works with.
  if (s.enum) return s.example !== undefined && s.enum.includes(s.example) ? s.example : s.enum[0]
  // A body of several shapes (POST /v1/media: an upload, or a URL): the first one.
  const shapes = s.anyOf ?? s.oneOf
  if (shapes?.length && !s.properties) return minimal(doc, shapes[0]!, host, name, s.example ?? example)
  const types = typesOf(s)
  const ex = s.example ?? example
  if (types.includes('object') || s.properties) {
    const out: Record<string, unknown> = {}
    for (const prop of s.required ?? []) {
      const exProp = s.example && typeof s.example === 'object' ? s.example[prop] : undefined
      out[prop] = minimal(doc, s.properties?.[prop] ?? {}, host, prop, exProp)
    }
    return out
  }
  if (types.includes('array')) {
    const n = s.minItems ?? 0
    if (/Ids$/.test(name)) return Array.from({ length: n }, () => host(kindOfName(name, /Ids$/)))
    return Array.from({ length: n }, () => minimal(doc, s.items ?? {}, host))
  }
  if (types.includes('integer') || types.includes('number')) return Math.max(1, s.minimum ?? 1)
  if (types.includes('boolean')) return false
  if (/Id$/.test(name)) return host(kindOfName(name, /Id$/))
  if (s.format === 'date-time') return FUTURE
  if (typeof ex === 'string') return fillTemplate(ex, host)
  return 'x'.repeat(Math.max(1, s.minLength ?? 1))
}

/** An example text with its ids replaced by the caller's own and its times moved into the future. */
export function fillTemplate(text: string, host: HostIds, swap?: { token: string; value: string }): string {
  const dated = text.replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?Z/g, FUTURE)
  return dated.replace(ID_TOKEN, (token, prefix: string) =>
    swap && token === swap.token ? swap.value : host(KIND_OF_PREFIX[prefix] ?? prefix),
  )
}

/** The schema at a body path (`[]` an array's items, `*` a record's values). */
function schemaAt(doc: OpenApiDoc, schema: JsonSchema, at: string[]): JsonSchema {
  let s = resolve(doc, schema)
  for (const seg of at) {
    const next = seg === '[]' ? s.items : seg === '*' ? s.additionalProperties : s.properties?.[seg]
    const alt = [...(s.anyOf ?? []), ...(s.oneOf ?? [])].map((a) => resolve(doc, a)).find((a) => a.properties?.[seg])
    s = resolve(doc, next ?? alt?.properties?.[seg] ?? {})
  }
  return s
}

export interface BuiltRequest {
  method: string
  url: string
  body?: unknown
  headers: Record<string, string>
}

/**
 * The operation's request with `value` in `place` (or none: the baseline) and the caller's own
 * ids everywhere else: path parameters, required query parameters, a minimal valid body.
 */
export function requestFor(
  doc: OpenApiDoc,
  op: Operation,
  places: IdPlace[],
  host: HostIds,
  place: IdPlace | null,
  value: string | null,
): BuiltRequest {
  const headers: Record<string, string> = {}
  const query = new URLSearchParams()
  let url = op.path
  for (const p of op.spec.parameters ?? []) {
    const mine = place && place.in === p.in && place.at[0] === p.name ? value : null
    if (p.in === 'path') {
      const kind = pathParamsOf(op).find((x) => x.name === p.name)!.kind
      url = url.replace(`{${p.name}}`, encodeURIComponent(mine ?? host(kind)))
    } else if (p.in === 'query' && (mine !== null || p.required)) {
      query.set(p.name, mine ?? String(minimal(doc, p.schema ?? {}, host, p.name)))
    } else if (p.in === 'header' && (mine !== null || p.required)) {
      headers[p.name] = mine ?? String(minimal(doc, p.schema ?? {}, host, p.name))
    }
  }
  const schema = bodySchemaOf(op)
  const built: BuiltRequest = { method: op.method, url: query.size ? `${url}?${query}` : url, headers }
  if (!schema) return built
  const body = minimal(doc, schema, host) as Record<string, any>
  if (place?.in === 'body' && value !== null) {
    const keyKindAt = (prefix: string[]) =>
      places.find((p) => p.form === 'key' && p.at.join('.') === prefix.join('.'))?.kind ?? 'unknown'
    let container: any = body
    const trail = place.form === 'item' ? place.at.slice(0, -1) : place.at
    for (const [i, seg] of trail.slice(0, -1).entries()) {
      const next = trail[i + 1] === '[]' ? [] : {}
      if (seg === '[]') container = container[0] ??= next
      else if (seg === '*') container = container[host(keyKindAt(trail.slice(0, i)))] ??= next
      else container = container[seg] ??= next
    }
    const last = trail.at(-1)!
    const slot = last === '*' ? host(keyKindAt(trail.slice(0, -1))) : last === '[]' ? 0 : last
    if (place.form === 'item') container[slot] = [value]
    else if (place.form === 'key') {
      container[slot] = { [value]: minimal(doc, schemaAt(doc, schema, [...place.at, '*']), host) }
    } else if (place.form === 'template') {
      container[slot] = fillTemplate(place.template!.text, host, { token: place.template!.token, value })
    } else container[slot] = value
  }
  built.body = body
  return built
}
