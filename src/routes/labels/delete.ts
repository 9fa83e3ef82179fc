import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { callerOf } from '../../http/caller'
import { errorResponses, jsonResponse, SECURITY } from '../../http/openapi'
import type { RouteMeta } from '../../http/route-meta'
import { deleteLabel } from '../../services/labels/labels'
import { DeletedLabelSchema, LabelIdParam } from '../../schemas/labels'

export const route = createRoute({
  method: 'delete',
  path: '/labels/{id}',
  operationId: 'deleteLabel',
  tags: ['Labels'],
  summary: 'Delete a label',
  description: 'It comes off every post that had it; the posts stay.',
  security: SECURITY,
  request: { params: LabelIdParam },
  responses: { ...jsonResponse(DeletedLabelSchema, 'The label is gone.'), ...errorResponses(403) },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', permission: 'write' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  return c.json(await deleteLabel(c.var.deps, callerOf(c), c.req.valid('param').id), 200)
}
