/** The small field builders every rules schema shares (`null` always means "no limit here"). */
import { z } from 'zod'

export const count = z.number().int().nonnegative()
export const positive = z.number().int().positive()
export const note = z.string().nullable().meta({
  description: 'Where a value comes from or how it applies, when that is not obvious; null when nothing to add.',
})
export const pixels = (what: string) => positive.nullable().meta({ description: `${what}, in pixels; null: no limit.` })
export const ratio = (what: string) =>
  z
    .number()
    .positive()
    .nullable()
    .meta({ description: `${what} aspect ratio, width / height (4:5 = 0.8); null: no limit.` })
/**
 * `schema | null` for a named component. `.nullable()` would mark the shared component itself
 * nullable in the OpenAPI document, so the union is spelled out.
 */
export function orNull<T extends z.ZodType>(schema: T, description: string) {
  return z.union([schema, z.null()]).meta({ description })
}
export const seconds = (what: string) =>
  z
    .number()
    .positive()
    .nullable()
    .meta({ description: `${what}, in seconds; null: no limit.` })
