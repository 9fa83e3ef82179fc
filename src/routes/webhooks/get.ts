import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { errorResponses, jsonResponse, SECURITY } from '../../http/openapi'
import type { RouteMeta } from '../../http/route-meta'
import { getEndpoint } from '../../services/webhooks/endpoints'
import { WebhookEndpointSchema, WebhookIdParam } from '../../schemas/webhooks'

export const route = createRoute({
  method: 'get',
  path: '/webhooks/{id}',
  operationId: 'getWebhookEndpoint',
  tags: ['Webhooks'],
  summary: 'One webhook endpoint',
  description: 'The endpoint without its secret. An id of another workspace is 404.',
  security: SECURITY,
  request: { params: WebhookIdParam },
  responses: { ...jsonResponse(WebhookEndpointSchema, 'The endpoint.'), ...errorResponses() },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', permission: 'manage' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps, auth } = c.var
  return c.json(await getEndpoint(deps, auth.workspaceId, c.req.valid('param').id), 200)
}
