import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { errorResponses, jsonBody, jsonResponse, SECURITY } from '../../http/openapi'
import type { RouteMeta } from '../../http/route-meta'
import { createReconnectLink } from '../../services/connect/links'
import { baseUrlOf } from '../../http/base-url'
import { AccountIdParam, ConnectLinkSchema, ReconnectRequestSchema } from '../../schemas/accounts'

export const route = createRoute({
  method: 'post',
  path: '/accounts/{id}/reconnect',
  operationId: 'createReconnectLink',
  tags: ['Accounts'],
  summary: 'A hosted link that renews an account',
  description:
    "A single-use link, valid 30 minutes, that renews this account's credentials: the same account id, back to `ACTIVE` (an `EXPIRED` or `DISCONNECTED` account too). Signing in as another identity of the network is refused on the page, in words, and changes nothing.",
  security: SECURITY,
  request: { params: AccountIdParam, body: jsonBody(ReconnectRequestSchema) },
  responses: { ...jsonResponse(ConnectLinkSchema, 'The link.'), ...errorResponses(422) },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', permission: 'connect', scope: 'account' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps, auth } = c.var
  const link = await createReconnectLink(
    deps,
    auth.workspaceId,
    c.req.valid('param').id,
    c.req.valid('json'),
    baseUrlOf(c),
  )
  return c.json(link, 200)
}
