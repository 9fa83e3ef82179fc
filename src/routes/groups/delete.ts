import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { callerOf } from '../../http/caller'
import { errorResponses, jsonResponse, SECURITY } from '../../http/openapi'
import type { RouteMeta } from '../../http/route-meta'
import { deleteGroup } from '../../services/groups/groups'
import { DeletedGroupSchema, GroupIdParam } from '../../schemas/groups'

export const route = createRoute({
  method: 'delete',
  path: '/groups/{id}',
  operationId: 'deleteGroup',
  tags: ['Groups'],
  summary: 'Delete an account group',
  description:
    'Its accounts stay connected; only their membership goes, with the member limits and review links of the group.',
  security: SECURITY,
  request: { params: GroupIdParam },
  responses: { ...jsonResponse(DeletedGroupSchema, 'The group is gone.'), ...errorResponses(403) },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', permission: 'manage' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  return c.json(await deleteGroup(c.var.deps, callerOf(c), c.req.valid('param').id), 200)
}
