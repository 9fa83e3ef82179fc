import { createRoute, z, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { errorResponses, jsonResponse, SECURITY } from '../../http/openapi'
import { listAccounts } from '../../services/accounts'
import { AccountSchema } from '../../schemas/accounts'
import type { RouteMeta } from '../../http/route-meta'

export const route = createRoute({
  method: 'get',
  path: '/accounts',
  operationId: 'listAccounts',
  tags: ['Accounts'],
  summary: 'The connected accounts of the workspace',
  description: 'Access tokens and other credentials of connected accounts are never returned.',
  security: SECURITY,
  responses: { ...jsonResponse(z.array(AccountSchema), 'Every account, oldest first.'), ...errorResponses() },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', permission: 'read' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps, auth } = c.var
  return c.json(await listAccounts(deps.db, auth.workspaceId), 200)
}
