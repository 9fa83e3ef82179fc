import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { errorResponses, jsonResponse, SECURITY } from '../../http/openapi'
import type { RouteMeta } from '../../http/route-meta'
import { rotateSecret } from '../../services/webhooks/endpoints'
import { WebhookEndpointWithSecretSchema, WebhookIdParam } from '../../schemas/webhooks'

export const route = createRoute({
  method: 'post',
  path: '/webhooks/{id}/rotate-secret',
  operationId: 'rotateWebhookSecret',
  tags: ['Webhooks'],
  summary: "Replace an endpoint's signing secret",
  description:
    'Answers the new secret (shown once). For 24 hours the old secret keeps signing alongside it: ' +
    '`webhook-signature` then carries both signatures, so a receiver can switch without losing a message.',
  security: SECURITY,
  request: { params: WebhookIdParam },
  responses: {
    ...jsonResponse(WebhookEndpointWithSecretSchema, 'The endpoint with its new secret (shown once).'),
    ...errorResponses(),
  },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', permission: 'manage' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps, auth } = c.var
  return c.json(await rotateSecret(deps, auth.workspaceId, c.req.valid('param').id), 200)
}
