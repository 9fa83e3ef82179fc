import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { errorResponses, jsonBody, jsonResponse, SECURITY } from '../../http/openapi'
import type { RouteMeta } from '../../http/route-meta'
import { createConnectLink } from '../../services/connect/links'
import { baseUrlOf } from '../../http/base-url'
import { ConnectLinkSchema, ConnectRequestSchema } from '../../schemas/accounts'

export const route = createRoute({
  method: 'post',
  path: '/accounts/connect',
  operationId: 'createConnectLink',
  tags: ['Accounts'],
  summary: 'A hosted connect link',
  description:
    'A single-use link, valid 30 minutes, to our hosted connect page: the account owner signs in at the network and approves (or, for networks without OAuth, fills in a form), and the account appears in `GET /v1/accounts`. A network this deployment has no OAuth client for is 422 `invalid_option` naming the missing configuration keys (`<PLATFORM>_CLIENT_ID` / `_CLIENT_SECRET`); a `redirectUrl` outside the allowed origins is 422 too. `groupId` files the new account into an account group; a member or token limited to groups always connects into one of theirs.',
  security: SECURITY,
  request: { body: jsonBody(ConnectRequestSchema) },
  responses: { ...jsonResponse(ConnectLinkSchema, 'The link.'), ...errorResponses(422) },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', permission: 'connect' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps, auth } = c.var
  return c.json(await createConnectLink(deps, auth, c.req.valid('json'), baseUrlOf(c)), 200)
}
