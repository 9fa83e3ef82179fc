import { createRoute, z, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { errorResponses, jsonResponse, SECURITY } from '../../http/openapi'
import type { RouteMeta } from '../../http/route-meta'
import { listLabels } from '../../services/labels/labels'
import { LabelSchema } from '../../schemas/labels'

export const route = createRoute({
  method: 'get',
  path: '/labels',
  operationId: 'listLabels',
  tags: ['Labels'],
  summary: 'The labels (campaigns, themes) of the workspace',
  description: 'By name. A post carries its labels in `labels`; `labelIds` on create and edit sets them.',
  security: SECURITY,
  responses: { ...jsonResponse(z.array(LabelSchema), 'The labels, by name.'), ...errorResponses() },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', permission: 'read' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  return c.json(await listLabels(c.var.deps.db, c.var.auth.workspaceId), 200)
}
