import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { errorResponses, jsonResponse, SECURITY } from '../../http/openapi'
import { listAccountDestinations } from '../../services/accounts/destinations'
import type { RouteMeta } from '../../http/route-meta'
import { AccountIdParam, DestinationsSchema } from '../../schemas/accounts'

export const route = createRoute({
  method: 'get',
  path: '/accounts/{id}/destinations',
  operationId: 'listAccountDestinations',
  tags: ['Accounts'],
  summary: 'The places an account publishes into',
  description:
    "Lists where a post of this account can go, as the network reports them now (a pinboard account's boards, and whatever the platform's `options.destination.nounPlural` in GET /v1/platforms names); a destination `id` is the value of `destinations[accountId]` when posting. An account of a platform whose `options.destination` is null is 422 `invalid_option`.",
  security: SECURITY,
  request: { params: AccountIdParam },
  responses: { ...jsonResponse(DestinationsSchema, "The account's destinations."), ...errorResponses(422) },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', permission: 'read', scope: 'account' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps, auth } = c.var
  return c.json({ destinations: await listAccountDestinations(deps, auth.workspaceId, c.req.valid('param').id) }, 200)
}
