/**
 * `unknown_field` warnings: the API accepts properties it does not define (bodies allow extra
 * properties), so a typo such as `capton` would be stored nowhere and said nowhere. This walks
 * the raw JSON body beside the request schema and names every property the schema does not
 * know, in nested objects too (`recurrence.frequncy`, `videoNetOptions.<accountId>.privacy`).
 * Only the schema's structure is read (objects, records, arrays and their wrappers), never its
 * checks: a value the schema refuses is the schema's to report (400), not a warning.
 */
import type { z } from 'zod'
import type { PostWarning } from './types'

/** The parts of a zod 4 schema definition this walk reads. */
interface SchemaDef {
  type: string
  shape?: Record<string, z.ZodType>
  innerType?: z.ZodType
  valueType?: z.ZodType
  element?: z.ZodType
  in?: z.ZodType
}

const defOf = (schema: z.ZodType) => schema.def as unknown as SchemaDef

/** The schema under optional, nullable, default, readonly and the like. */
function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema
  for (let depth = 0; depth < 16; depth++) {
    const def = defOf(current)
    const inner = def.innerType ?? (def.type === 'pipe' ? def.in : undefined)
    if (!inner) return current
    current = inner
  }
  return current
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** Every property of `body` that `schema` does not define, as `unknown_field` warnings (paths joined with dots). */
export function unknownFieldWarnings(schema: z.ZodType, body: unknown): PostWarning[] {
  const paths: string[] = []
  walk(schema, body, '', paths)
  return paths.map((path) => ({
    code: 'unknown_field',
    path,
    message: `${path} is not a field of this operation: it was ignored. Check its spelling.`,
  }))
}

function walk(schema: z.ZodType, value: unknown, prefix: string, out: string[]): void {
  const node = unwrap(schema)
  const def = defOf(node)
  const at = (key: string | number) => (prefix === '' ? String(key) : `${prefix}.${key}`)
  if (def.type === 'object' && def.shape && isPlainObject(value)) {
    for (const [key, child] of Object.entries(value)) {
      // Own properties only: `__proto__` or `constructor` in a body must not reach Object.prototype.
      const field = Object.hasOwn(def.shape, key) ? def.shape[key] : undefined
      if (field) walk(field, child, at(key), out)
      else out.push(at(key))
    }
  } else if (def.type === 'record' && def.valueType && isPlainObject(value)) {
    for (const [key, child] of Object.entries(value)) walk(def.valueType, child, at(key), out)
  } else if (def.type === 'array' && def.element && Array.isArray(value)) {
    value.forEach((child, index) => walk(def.element!, child, at(index), out))
  }
}
