import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { errorResponses, jsonResponse, SECURITY } from '../../http/openapi'
import type { RouteMeta } from '../../http/route-meta'
import { getAccount } from '../../services/accounts/accounts'
import { AccountIdParam, AccountSchema } from '../../schemas/accounts'

export const route = createRoute({
  method: 'get',
  path: '/accounts/{id}',
  operationId: 'getAccount',
  tags: ['Accounts'],
  summary: 'One connected account and its health',
  description:
    'The account with its status, the reason when it is not `ACTIVE`, its token expiry, when it was connected and when it last published. Credentials are never returned.',
  security: SECURITY,
  request: { params: AccountIdParam },
  responses: { ...jsonResponse(AccountSchema, 'The account.'), ...errorResponses() },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', permission: 'read', scope: 'account' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps, auth } = c.var
  return c.json(await getAccount(deps.db, auth.workspaceId, c.req.valid('param').id), 200)
}
