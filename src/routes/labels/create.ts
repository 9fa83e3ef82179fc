import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { callerOf } from '../../http/caller'
import { errorResponses, jsonBody, jsonResponse, SECURITY } from '../../http/openapi'
import type { RouteMeta } from '../../http/route-meta'
import { createLabel } from '../../services/labels/labels'
import { CreateLabelSchema, LabelSchema } from '../../schemas/labels'

export const route = createRoute({
  method: 'post',
  path: '/labels',
  operationId: 'createLabel',
  tags: ['Labels'],
  summary: 'Create a label',
  description:
    'A name unique in the workspace in any case (else 409 `name_taken`) and a colour (`#rrggbb`, default `#64748b`).',
  security: SECURITY,
  request: { body: jsonBody(CreateLabelSchema) },
  responses: { ...jsonResponse(LabelSchema, 'The label created.'), ...errorResponses(403, 409) },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', permission: 'write' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  return c.json(await createLabel(c.var.deps, callerOf(c), c.req.valid('json')), 200)
}
