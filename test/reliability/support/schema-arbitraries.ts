/**
 * Values from the JSON schemas of an OpenAPI document, as fast-check arbitraries: first valid-ish
 * ones (so a request gets past validation into the handlers), then mutated (wrong types, nulls,
 * huge strings, text the database cannot store, deep nesting, prototype keys, raw JSON oddities).
 * Values the workspace holds (account, media, post ids) are placeholders resolved when the request
 * is sent, so a run is reproducible from its seed whatever ids the database handed out.
 */
import fc from 'fast-check'

export type JsonSchema = { [key: string]: any }
export interface OpenApiDoc {
  paths: Record<string, Record<string, any>>
  components?: { schemas?: Record<string, JsonSchema> }
}

/** The `index`-th value (modulo its size) of a pool of the workspace, looked up when the request is sent. */
export class PoolRef {
  constructor(
    readonly pool: string,
    readonly index: number,
  ) {}
  toString = () => `<${this.pool}#${this.index}>`
}

/** A string assembled at send time from text and pool values (a CSV naming real accounts). */
export class Template {
  constructor(readonly parts: Array<string | PoolRef>) {}
}

/** JSON text put into a body as it is (`1e309`, `-0.0`, numbers beyond double precision). */
export class RawJson {
  constructor(readonly text: string) {}
}

/** `arbitrary` one time in `n`, else `nil`. */
export const sometimes = <T, N>(n: number, arbitrary: fc.Arbitrary<T>, nil: N): fc.Arbitrary<T | N> =>
  fc.oneof({ arbitrary: fc.constant(nil), weight: n - 1 }, { arbitrary, weight: 1 })

export const ref = (pool: string) => fc.noBias(fc.nat({ max: 10_000 })).map((i) => new PoolRef(pool, i))

/** A pool value as an object key: `@@pool#index`, replaced when the request is sent. */
export const refKey = (pool: string) => fc.noBias(fc.nat({ max: 10_000 })).map((i) => `@@${pool}#${i}`)
export const REF_KEY = /^@@([\w.-]+)#(\d+)$/

export interface SchemaContext {
  doc: OpenApiDoc
  /** Arbitraries by property name (`accountIds`), or for the items of an array property (`accountIds[]`). */
  hints: Record<string, fc.Arbitrary<unknown>>
  /** Keys of maps (`additionalProperties`), such as the account ids of `videoNetOptions` (see `refKey`). */
  mapKeys: fc.Arbitrary<string>
}

export function deref(doc: OpenApiDoc, schema: JsonSchema | undefined): JsonSchema {
  let s = schema ?? {}
  for (let i = 0; s.$ref && i < 20; i++) s = doc.components?.schemas?.[String(s.$ref).split('/').pop()!] ?? {}
  return s
}

const anyText = (minLength: number, maxLength: number) =>
  fc.oneof(
    { arbitrary: fc.string({ minLength, maxLength }), weight: 3 },
    { arbitrary: fc.string({ minLength, maxLength, unit: 'grapheme' }), weight: 1 },
  )

/** A time in the future mostly (schedules), sometimes past, with Z or an offset. */
export const dateTime = () =>
  fc
    .tuple(fc.integer({ min: -86_400, max: 400 * 86_400 }), fc.constantFrom('Z', '+00:00', '+05:30', '-08:00', '.123Z'))
    .map(([sec, zone]) => {
      const iso = new Date(Date.now() + 3_600_000 + sec * 1000).toISOString().slice(0, 19)
      return `${iso}${zone}`
    })

function typed(ctx: SchemaContext, s: JsonSchema, type: string, name: string, depth: number): fc.Arbitrary<unknown> {
  switch (type) {
    case 'string': {
      if (s.format === 'date-time') return dateTime()
      if (s.pattern) return fc.stringMatching(new RegExp(s.pattern)).filter((v) => v.length < 200)
      const min = s.minLength ?? 0
      return anyText(min, Math.max(min, Math.min(s.maxLength ?? 30, 30)))
    }
    case 'integer': {
      const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : -10)
      return fc.integer({ min, max: s.maximum ?? min + 1000 })
    }
    case 'number': {
      const min = s.minimum ?? -1000
      return fc.double({ min, max: s.maximum ?? min + 1000, noNaN: true, noDefaultInfinity: true })
    }
    case 'boolean':
      return fc.boolean()
    case 'array': {
      const items = arbitraryFor(ctx, s.items, `${name}[]`, depth + 1)
      const min = s.minItems ?? 0
      return fc.array(items, { minLength: min, maxLength: Math.max(min, Math.min(s.maxItems ?? 4, 4)) })
    }
    case 'object':
      return objectOf(ctx, s, depth)
    default:
      return fc.constant(null)
  }
}

function objectOf(ctx: SchemaContext, s: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  const props = s.properties ?? {}
  const required = new Set<string>(s.required ?? [])
  // Optional properties come one time in four: with all of them at once, some rule nearly always breaks.
  const fields = Object.entries(props).map(([k, v]) => {
    const value = arbitraryFor(ctx, v as JsonSchema, k, depth + 1)
    return required.has(k)
      ? value.map((x) => [k, x])
      : sometimes(
          4,
          value.map((x) => [k, x]),
          null,
        )
  })
  const record = fc.tuple(...fields).map((pairs) => Object.fromEntries(pairs.filter((p) => p !== null) as any))
  const extra = s.additionalProperties
  if (!extra || typeof extra !== 'object' || Object.keys(extra).length === 0) return record
  const values = arbitraryFor(ctx, extra, '', depth + 1)
  const map = fc.array(fc.tuple(ctx.mapKeys, values), { maxLength: 3 })
  return fc.tuple(record, map).map(([obj, entries]) => {
    const out = { ...(obj as object) }
    for (const [k, v] of entries) Object.defineProperty(out, k, { value: v, enumerable: true, writable: true })
    return out
  })
}

/** A valid-ish value of `schema`; `name` is the property it fills (for hints). */
export function arbitraryFor(
  ctx: SchemaContext,
  schema: JsonSchema | undefined,
  name = '',
  depth = 0,
): fc.Arbitrary<unknown> {
  const hint = name ? ctx.hints[name] : undefined
  if (hint) return hint
  const s = deref(ctx.doc, schema)
  if (depth > 8) return fc.constant(null)
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]))
  const alternatives = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined
  if (alternatives) return fc.oneof(...alternatives.map((a) => arbitraryFor(ctx, a, name, depth + 1)))
  const types: string[] = Array.isArray(s.type) ? s.type : s.type ? [s.type] : s.properties ? ['object'] : ['string']
  const concrete = types.filter((t) => t !== 'null')
  const base = concrete.length > 0 ? fc.oneof(...concrete.map((t) => typed(ctx, s, t, name, depth))) : fc.constant(null)
  return types.includes('null')
    ? fc.oneof({ arbitrary: base, weight: 5 }, { arbitrary: fc.constant(null), weight: 1 })
    : base
}

/** A value nested `depth` levels deep (arrays or objects), written out only as JSON text. */
export class Deep {
  constructor(
    readonly depth: number,
    readonly asObject: boolean,
  ) {}
  toString = () => `<${this.asObject ? '{a:' : '['} x ${this.depth}>`
  toJson = () =>
    this.asObject
      ? `${'{"a":'.repeat(this.depth)}"deep"${'}'.repeat(this.depth)}`
      : `${'['.repeat(this.depth)}"deep"${']'.repeat(this.depth)}`
}

/** Values no schema asks for. */
export const nastyValue = (): fc.Arbitrary<unknown> =>
  fc.oneof(
    fc.constantFrom<unknown>(null, true, false, 0, -1, 1.5, -0, 2 ** 53 + 1, 1e308, 5e-324, [], {}, [null], ''),
    fc.constantFrom(' ', '\u0000', 'a\u0000b', '\ud800', 'x\udc00y', '\udbff', '\ud83d\ude00', '\u202e\ufeff'),
    fc.constantFrom('0000-01-01T00:00:00Z', '+275760-09-13T00:00:00.000Z', '2026-02-30T25:61:00Z', '2026-12-01'),
    fc.constantFrom('9999-12-31T23:59:59.999+14:00', '1970-01-01T00:00:00-00:01', 'null', '%00', '../..', 'NaN'),
    fc.constantFrom(
      "'; drop table posts; --",
      '<script>alert(1)</script>',
      '{{7*7}}',
      'acc_',
      'post_x',
      'javascript:1',
    ),
    fc.constantFrom(
      ...['1e309', '-1e309', '1e-400', '-0.0', '123456789012345678901234567890', '1E+2'].map((t) => new RawJson(t)),
    ),
    fc
      .constantFrom(1000, 2049, 65_536, 100_001, 400_000)
      .chain((n) => fc.constantFrom('x', 'é', '😀', '\u0000', ' ').map((c) => c.repeat(Math.ceil(n / c.length)))),
    fc.tuple(fc.integer({ min: 20, max: 3000 }), fc.boolean()).map(([d, o]) => new Deep(d, o)),
    fc.string({ unit: 'binary', maxLength: 12 }),
    fc.integer(),
    fc.double(),
    fc.dictionary(
      fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString'),
      fc.constantFrom({ x: 1 }, 1, null),
    ),
    fc.anything({ maxDepth: 2 }),
  )

export type Path = Array<string | number>
const isContainer = (v: unknown): v is Record<string, unknown> | unknown[] =>
  v !== null &&
  typeof v === 'object' &&
  !(v instanceof PoolRef) &&
  !(v instanceof Template) &&
  !(v instanceof RawJson) &&
  !(v instanceof Deep)

/** Every place in a value (the root too), at most `limit` of them, shallow first. */
export function placesIn(value: unknown, limit = 200): Path[] {
  const out: Path[] = [[]]
  const queue: Array<[unknown, Path]> = [[value, []]]
  while (queue.length > 0 && out.length < limit) {
    const [v, path] = queue.shift()!
    if (!isContainer(v)) continue
    for (const key of Array.isArray(v) ? v.keys() : Object.keys(v)) {
      const child = (v as any)[key]
      out.push([...path, key])
      queue.push([child, [...path, key]])
    }
  }
  return out
}

/** A copy of `value` with `path` replaced (or removed, for `undefined`); new keys become own properties. */
export function setAt(value: unknown, path: Path, replacement: unknown): unknown {
  if (path.length === 0) return replacement
  if (!isContainer(value)) return value
  const [head, ...rest] = path
  const copy: any = Array.isArray(value) ? [...value] : Object.assign({}, value)
  const next = setAt(copy[head as any], rest, replacement)
  if (next === undefined && rest.length === 0) {
    if (Array.isArray(copy)) copy.splice(head as number, 1)
    else delete copy[head as string]
  } else Object.defineProperty(copy, head!, { value: next, enumerable: true, writable: true, configurable: true })
  return copy
}

/** The value with one of: a place replaced by a nasty value, a place removed, or an odd key added. */
export const mutated = (value: unknown): fc.Arbitrary<unknown> => {
  const places = placesIn(value)
  const objects = places.filter((p) => {
    const v = p.reduce((v: any, k) => v?.[k], value)
    return isContainer(v) && !Array.isArray(v)
  })
  const options = [
    { arbitrary: fc.tuple(fc.constantFrom(...places), nastyValue()).map(([p, n]) => setAt(value, p, n)), weight: 6 },
    { arbitrary: fc.constantFrom(...places).map((p) => setAt(value, p, undefined)), weight: 2 },
  ]
  if (objects.length > 0) {
    const key = fc.constantFrom('__proto__', 'constructor', 'prototype', 'x')
    options.push({
      arbitrary: fc
        .tuple(fc.constantFrom(...objects), key, nastyValue())
        .map(([p, k, n]) => setAt(value, [...p, k], n)),
      weight: 2,
    })
  }
  return fc.oneof(...options)
}
