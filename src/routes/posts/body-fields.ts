import type { Context } from 'hono'
import type { z } from '@hono/zod-openapi'
import { type PostWarning, unknownFieldWarnings } from '../../domain/post-validation'

/**
 * `unknown_field` warnings for the request's JSON body against the operation's body schema: the
 * raw body, since the validated one has no nested unknown properties left. Not a route file.
 */
export async function unknownBodyFields(c: Context, schema: z.ZodType): Promise<PostWarning[]> {
  const raw: unknown = await c.req.json().catch(() => undefined)
  return unknownFieldWarnings(schema, raw)
}
