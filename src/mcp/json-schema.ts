/**
 * The JSON Schemas of `tools/list`, made lean: every byte of that answer sits in an agent's context.
 * A schema keeps its meaning for a validator (draft-07, as the MCP SDK's Ajv reads it); what goes is
 * what an agent does not need to call a tool or read its answer:
 * - annotations of the OpenAPI document (`param`, `example`, `x-…`);
 * - the regular expression beside a `format` that already names the shape (`date-time`), bounds
 *   that bound nothing (±`Number.MAX_SAFE_INTEGER`), empty `properties` and `additionalProperties`;
 * - in an output schema (the shape of an answer the service gives, not a form to fill), every
 *   description, default, `required` list and length, size and count bound, and
 *   `additionalProperties: false` (the tool's description says which fields come when);
 * - repetition: a sub-schema met twice or more in one schema is written once under `definitions`
 *   and referred to by `$ref` (schemas of different tools cannot share: each one stands alone); a
 *   `description` beside such a `$ref` that only repeats the definition's own goes too.
 * `anyOf` of a plain type and null becomes a type list (`"type": ["string", "null"]`), its equivalent.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type Node = { [key: string]: Json }

const isNode = (v: Json | undefined): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v)

/** Keywords that hold sub-schemas: by name (one), by list, or by property name. */
const ONE = ['items', 'additionalProperties', 'propertyNames', 'not', 'if', 'then', 'else', 'contains']
const LIST = ['anyOf', 'oneOf', 'allOf']
const MAP = ['properties', 'definitions', 'patternProperties']

/** Bounds that say nothing about the shape of an answer. */
const OUTPUT_ONLY_NOISE = new Set([
  'description',
  'title',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
  'default',
  'required',
])

/** Keywords that constrain any type: an `anyOf` branch with one of them cannot be merged into a type list. */
const TYPE_INDEPENDENT = new Set(['enum', 'const', '$ref', 'anyOf', 'oneOf', 'allOf', 'not', 'if', 'then', 'else'])

function mapChildren(node: Node, f: (child: Node) => Node): Node {
  const out: Node = {}
  for (const [key, value] of Object.entries(node)) {
    if (ONE.includes(key) && isNode(value)) out[key] = f(value)
    else if (LIST.includes(key) && Array.isArray(value)) out[key] = value.map((v) => (isNode(v) ? f(v) : v))
    else if (MAP.includes(key) && isNode(value))
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, isNode(v) ? f(v) : v]))
    else out[key] = value
  }
  return out
}

function trim(node: Node, output: boolean): Node {
  const out: Node = {}
  for (const [key, value] of Object.entries(node)) {
    if (key === 'param' || key === 'example' || key === 'examples' || key.startsWith('x-')) continue
    if (key === 'pattern' && node.format === 'date-time') continue
    if ((key === 'maximum' || key === 'minimum') && Math.abs(value as number) === Number.MAX_SAFE_INTEGER) continue
    if (key === 'properties' && isNode(value) && Object.keys(value).length === 0) continue
    if (key === 'additionalProperties' && isNode(value) && Object.keys(value).length === 0) continue
    if (output && (OUTPUT_ONLY_NOISE.has(key) || (key === 'additionalProperties' && value === false))) continue
    out[key] = value
  }
  return mapChildren(out, (child) => trim(child, output))
}

/** `anyOf: [{type: T, …}, {type: 'null'}]` as `{type: [T, 'null'], …}` where T's keywords only apply to T. */
function mergeNullable(node: Node): Node {
  const merged = mapChildren(node, mergeNullable)
  const branches = merged.anyOf
  if (!Array.isArray(branches) || branches.length !== 2) return merged
  const nullAt = branches.findIndex((b) => isNode(b) && b.type === 'null' && Object.keys(b).length === 1)
  const other = branches[1 - nullAt]
  if (nullAt < 0 || !isNode(other) || typeof other.type !== 'string') return merged
  if (Object.keys(other).some((k) => TYPE_INDEPENDENT.has(k) || k in merged)) return merged
  const { anyOf: _, ...rest } = merged
  return { ...other, ...rest, type: [other.type, 'null'] }
}

const MIN_SHARED_CHARS = 60

/** A name for a shared sub-schema, from the property it sits under (`errors` items: `Error`), made unique. */
function nameFor(hint: string, taken: Set<string>): string {
  const base = (hint.charAt(0).toUpperCase() + hint.slice(1)).replace(/[^A-Za-z0-9]/g, '') || 'Shape'
  let name = base
  for (let i = 2; taken.has(name); i++) name = `${base}${i}`
  taken.add(name)
  return name
}

/** Each sub-schema of `roots` (text → how often, and the property name it was first met under). */
function countSubschemas(roots: Node[]): Map<string, { count: number; hint: string }> {
  const seen = new Map<string, { count: number; hint: string }>()
  const walk = (node: Node, hint: string) => {
    for (const [key, value] of Object.entries(node)) {
      const children: Array<[Json, string]> = ONE.includes(key)
        ? [[value, key === 'items' ? hint.replace(/(ies|s)$/, (m) => (m === 'ies' ? 'y' : '')) : key]]
        : LIST.includes(key) && Array.isArray(value)
          ? value.map((v) => [v, hint])
          : MAP.includes(key) && isNode(value)
            ? Object.entries(value).map(([k, v]) => [v, k])
            : []
      for (const [child, childHint] of children) {
        if (!isNode(child)) continue
        const text = JSON.stringify(child)
        const entry = seen.get(text)
        if (entry) entry.count++
        else seen.set(text, { count: 1, hint: childHint })
        walk(child, childHint)
      }
    }
  }
  for (const root of roots) walk(root, 'shape')
  return seen
}

/**
 * Writes each sub-schema met twice or more (and long enough to be worth it) once, under
 * `definitions`, the largest first: a repeat inside a shared schema then counts once.
 */
function shareRepeats(root: Node): Node {
  const { definitions: given, ...rest } = root
  let body: Node = rest
  const definitions: Node = isNode(given) ? { ...given } : {}
  const taken = new Set(Object.keys(definitions))
  for (;;) {
    const seen = countSubschemas([body, ...Object.values(definitions).filter(isNode)])
    const repeats = [...seen].filter(([text, { count }]) => count > 1 && text.length >= MIN_SHARED_CHARS)
    if (repeats.length === 0) break
    const [text, { hint }] = repeats.reduce((a, b) => (b[0].length > a[0].length ? b : a))
    const known = Object.entries(definitions).find(([, schema]) => JSON.stringify(schema) === text)?.[0]
    const name = known ?? nameFor(hint, taken)
    const replace = (node: Node): Node =>
      JSON.stringify(node) === text ? { $ref: `#/definitions/${name}` } : mapChildren(node, replace)
    body = mapChildren(body, replace)
    for (const [key, schema] of Object.entries(definitions))
      if (isNode(schema)) definitions[key] = mapChildren(schema, replace)
    definitions[name] ??= JSON.parse(text) as Json
  }
  return Object.keys(definitions).length ? { ...body, definitions } : body
}

/** The definition a node refers to, directly or as the non-null branch of `anyOf`. */
function referred(node: Node, definitions: Node): Node | undefined {
  const refs = [node, ...(Array.isArray(node.anyOf) ? node.anyOf : [])]
    .filter(isNode)
    .map((n) => n.$ref)
    .filter((ref): ref is string => typeof ref === 'string' && ref.startsWith('#/definitions/'))
  const target = refs.length === 1 ? definitions[refs[0]!.slice('#/definitions/'.length)] : undefined
  return isNode(target) ? target : undefined
}

/** Drops a `description` that only repeats the one of the shared definition the node refers to. */
function dropEchoedDescriptions(root: Node): Node {
  const definitions = root.definitions
  if (!isNode(definitions)) return root
  const drop = (node: Node): Node => {
    const target = referred(node, definitions)
    const { description, ...rest } = node
    const kept = description !== undefined && target?.description === description ? rest : node
    return mapChildren(kept, drop)
  }
  return drop(root)
}

/** The lean form of a tool's input or output JSON Schema (see the top of this file). */
export function leanSchema(schema: Node, io: 'input' | 'output'): Node {
  return dropEchoedDescriptions(shareRepeats(mergeNullable(trim(schema, io === 'output'))))
}
