import { createRoute, z, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { callerOf } from '../../http/caller'
import { errorResponses, jsonResponse, SECURITY } from '../../http/openapi'
import type { RouteMeta } from '../../http/route-meta'
import { disconnectAccount } from '../../services/accounts/disconnect'
import { AccountIdParam, AccountSchema } from '../../schemas/accounts'

const DisconnectedAccountSchema = z
  .object({
    account: AccountSchema,
    tokenRevoked: z.boolean().openapi({
      description:
        "True when the network confirmed the token's revocation; false when it documents no revocation endpoint or refused (then `statusReason` says so).",
    }),
    failedTargets: z
      .number()
      .int()
      .openapi({ description: 'Pending targets on the account that were failed with `account_disconnected`.' }),
  })
  .openapi('DisconnectedAccount')

export const route = createRoute({
  method: 'delete',
  path: '/accounts/{id}',
  operationId: 'disconnectAccount',
  tags: ['Accounts'],
  summary: 'Disconnect an account',
  description:
    'Revokes the token at the network where it has a revocation endpoint, wipes the stored credentials and keeps the account as `DISCONNECTED` for history. Its pending targets fail with `account_disconnected` in the same transaction and are never published. Disconnecting a disconnected account changes nothing. Reconnect it with `POST /v1/accounts/{id}/reconnect`.',
  security: SECURITY,
  request: { params: AccountIdParam },
  responses: { ...jsonResponse(DisconnectedAccountSchema, 'The account, now disconnected.'), ...errorResponses() },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', permission: 'connect', scope: 'account' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps } = c.var
  const result = await disconnectAccount(deps, callerOf(c), c.req.valid('param').id)
  return c.json({ account: result.account, tokenRevoked: result.revoked, failedTargets: result.failedTargets }, 200)
}
