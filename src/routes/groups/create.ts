import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { callerOf } from '../../http/caller'
import { errorResponses, jsonBody, jsonResponse, SECURITY } from '../../http/openapi'
import type { RouteMeta } from '../../http/route-meta'
import { createGroup } from '../../services/groups/groups'
import { CreateGroupSchema, GroupSchema } from '../../schemas/groups'

export const route = createRoute({
  method: 'post',
  path: '/groups',
  operationId: 'createGroup',
  tags: ['Groups'],
  summary: 'Create an account group (a client, a brand)',
  description:
    'A name unique in the workspace in any case (else 409 `name_taken`), an optional colour, whether its posts need approval, and its accounts (`accountIds`; an account of another workspace is 422 `account_not_found`). An account may be in several groups.',
  security: SECURITY,
  request: { body: jsonBody(CreateGroupSchema) },
  responses: { ...jsonResponse(GroupSchema, 'The group created.'), ...errorResponses(403, 409, 422) },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', permission: 'manage' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  return c.json(await createGroup(c.var.deps, callerOf(c), c.req.valid('json')), 200)
}
