import { createRoute, z, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { callerOf } from '../../http/caller'
import { errorResponses, jsonResponse, SECURITY } from '../../http/openapi'
import type { RouteMeta } from '../../http/route-meta'
import { listGroups } from '../../services/groups/groups'
import { GroupSchema } from '../../schemas/groups'

export const route = createRoute({
  method: 'get',
  path: '/groups',
  operationId: 'listGroups',
  tags: ['Groups'],
  summary: 'The account groups (clients, brands) of the workspace',
  description:
    'By name, each with its accounts. A member limited to some groups sees those groups only (docs/decisions.md, "Account groups, labels and visibility").',
  security: SECURITY,
  responses: { ...jsonResponse(z.array(GroupSchema), 'The groups, by name.'), ...errorResponses() },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', permission: 'read' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  return c.json(await listGroups(c.var.deps.db, callerOf(c)), 200)
}
