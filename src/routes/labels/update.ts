import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { callerOf } from '../../http/caller'
import { errorResponses, jsonBody, jsonResponse, SECURITY } from '../../http/openapi'
import type { RouteMeta } from '../../http/route-meta'
import { updateLabel } from '../../services/labels/labels'
import { LabelIdParam, LabelSchema, UpdateLabelSchema } from '../../schemas/labels'

export const route = createRoute({
  method: 'patch',
  path: '/labels/{id}',
  operationId: 'updateLabel',
  tags: ['Labels'],
  summary: 'Rename a label or change its colour',
  description: 'A name another label has is 409 `name_taken`. Its posts keep it.',
  security: SECURITY,
  request: { params: LabelIdParam, body: jsonBody(UpdateLabelSchema) },
  responses: { ...jsonResponse(LabelSchema, 'The label as changed.'), ...errorResponses(403, 409) },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', permission: 'write' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps } = c.var
  return c.json(await updateLabel(deps, callerOf(c), c.req.valid('param').id, c.req.valid('json')), 200)
}
