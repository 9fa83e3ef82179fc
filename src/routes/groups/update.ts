import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { callerOf } from '../../http/caller'
import { errorResponses, jsonBody, jsonResponse, SECURITY } from '../../http/openapi'
import type { RouteMeta } from '../../http/route-meta'
import { updateGroup } from '../../services/groups/groups'
import { GroupIdParam, GroupSchema, UpdateGroupSchema } from '../../schemas/groups'

export const route = createRoute({
  method: 'patch',
  path: '/groups/{id}',
  operationId: 'updateGroup',
  tags: ['Groups'],
  summary: 'Rename an account group, or change its colour, approval rule or accounts',
  description:
    'Every field is optional; `accountIds` replaces the accounts (`[]` empties the group). A name another group has is 409 `name_taken`; an unknown account 422 `account_not_found`.',
  security: SECURITY,
  request: { params: GroupIdParam, body: jsonBody(UpdateGroupSchema) },
  responses: { ...jsonResponse(GroupSchema, 'The group as changed.'), ...errorResponses(403, 409, 422) },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', permission: 'manage' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  return c.json(await updateGroup(c.var.deps, callerOf(c), c.req.valid('param').id, c.req.valid('json')), 200)
}
