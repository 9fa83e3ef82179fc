import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { errorResponses, jsonBody, jsonResponse, SECURITY } from '../../http/openapi'
import type { RouteMeta } from '../../http/route-meta'
import { createEndpoint } from '../../services/webhooks/endpoints'
import { CreateWebhookSchema, WebhookEndpointWithSecretSchema } from '../../schemas/webhooks'

export const route = createRoute({
  method: 'post',
  path: '/webhooks',
  operationId: 'createWebhookEndpoint',
  tags: ['Webhooks'],
  summary: 'Add a webhook endpoint',
  description:
    'Events of the chosen types are POSTed to `url`, signed as Standard Webhooks (`webhook-id`, ' +
    '`webhook-timestamp`, `webhook-signature`) with the `secret` of this answer, which is never shown again. ' +
    'The URL must be https and resolve to public addresses only. The plan caps the endpoints of a workspace (403).',
  security: SECURITY,
  request: { body: jsonBody(CreateWebhookSchema) },
  responses: {
    ...jsonResponse(WebhookEndpointWithSecretSchema, 'The endpoint, with its signing secret (shown once).'),
    ...errorResponses(403),
  },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', permission: 'manage' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps, auth } = c.var
  return c.json(await createEndpoint(deps, auth.workspaceId, c.req.valid('json')), 200)
}
