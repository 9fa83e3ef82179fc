import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { errorResponses, jsonBody, jsonResponse, SECURITY } from '../../http/openapi'
import type { RouteMeta } from '../../http/route-meta'
import { updateEndpoint } from '../../services/webhooks/endpoints'
import { UpdateWebhookSchema, WebhookEndpointSchema, WebhookIdParam } from '../../schemas/webhooks'

export const route = createRoute({
  method: 'patch',
  path: '/webhooks/{id}',
  operationId: 'updateWebhookEndpoint',
  tags: ['Webhooks'],
  summary: 'Change a webhook endpoint',
  description:
    'Changes the fields given (`url`, `events`, `description`, `enabled`). Disabling fails what waits for it; ' +
    'enabling a disabled endpoint gives it five more days before it can be disabled again.',
  security: SECURITY,
  request: { params: WebhookIdParam, body: jsonBody(UpdateWebhookSchema) },
  responses: { ...jsonResponse(WebhookEndpointSchema, 'The endpoint as changed.'), ...errorResponses() },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', permission: 'manage' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps, auth } = c.var
  return c.json(await updateEndpoint(deps, auth.workspaceId, c.req.valid('param').id, c.req.valid('json')), 200)
}
