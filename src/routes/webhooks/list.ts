import { createRoute, z, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { errorResponses, jsonResponse, SECURITY } from '../../http/openapi'
import type { RouteMeta } from '../../http/route-meta'
import { listEndpoints } from '../../services/webhooks/endpoints'
import { WebhookEndpointSchema } from '../../schemas/webhooks'

export const route = createRoute({
  method: 'get',
  path: '/webhooks',
  operationId: 'listWebhookEndpoints',
  tags: ['Webhooks'],
  summary: "The workspace's webhook endpoints",
  description: 'Every endpoint, oldest first. Secrets are never listed.',
  security: SECURITY,
  responses: {
    ...jsonResponse(z.array(WebhookEndpointSchema), 'The endpoints.'),
    ...errorResponses(),
  },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', permission: 'manage' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps, auth } = c.var
  return c.json(await listEndpoints(deps, auth.workspaceId), 200)
}
