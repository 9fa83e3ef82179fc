import { createRoute, z, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { errorResponses, jsonResponse, SECURITY } from '../../http/openapi'
import { listAccounts } from '../../services/accounts/accounts'
import { AccountSchema, ListAccountsQuery } from '../../schemas/accounts'
import { scopeOf } from '../../services/access/visibility'
import type { RouteMeta } from '../../http/route-meta'

export const route = createRoute({
  method: 'get',
  path: '/accounts',
  operationId: 'listAccounts',
  tags: ['Accounts'],
  summary: 'The connected accounts of the workspace',
  description:
    'Access tokens and other credentials of connected accounts are never returned. `groupId` narrows the list to one account group; a member limited to some groups sees their accounts only.',
  security: SECURITY,
  request: { query: ListAccountsQuery },
  responses: { ...jsonResponse(z.array(AccountSchema), 'Every account, oldest first.'), ...errorResponses() },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', permission: 'read' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps, auth } = c.var
  const scope = await scopeOf(deps.db, auth, c.req.valid('query'))
  return c.json(await listAccounts(deps.db, auth.workspaceId, scope), 200)
}
