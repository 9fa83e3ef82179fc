import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { callerOf } from '../../http/caller'
import { errorResponses, jsonResponse, SECURITY } from '../../http/openapi'
import type { RouteMeta } from '../../http/route-meta'
import { getGroup } from '../../services/groups/groups'
import { GroupIdParam, GroupSchema } from '../../schemas/groups'

export const route = createRoute({
  method: 'get',
  path: '/groups/{id}',
  operationId: 'getGroup',
  tags: ['Groups'],
  summary: 'One account group with its accounts',
  description: "Another workspace's group, or one outside a limited member's groups, is 404.",
  security: SECURITY,
  request: { params: GroupIdParam },
  responses: { ...jsonResponse(GroupSchema, 'The group.'), ...errorResponses() },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', permission: 'read' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  return c.json(await getGroup(c.var.deps.db, callerOf(c), c.req.valid('param').id), 200)
}
