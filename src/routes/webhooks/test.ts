import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { errorResponses, jsonResponse, SECURITY } from '../../http/openapi'
import type { RouteMeta } from '../../http/route-meta'
import { sendTestPing } from '../../services/webhooks/log'
import { WebhookDeliverySchema, WebhookIdParam } from '../../schemas/webhooks'

export const route = createRoute({
  method: 'post',
  path: '/webhooks/{id}/test',
  operationId: 'testWebhookEndpoint',
  tags: ['Webhooks'],
  summary: 'Send a ping to an endpoint',
  description:
    'Sends a signed `ping` event now (also to a disabled endpoint) and answers the delivery with its first ' +
    "attempt: the receiver's status and the first KiB of its answer. A failed ping is retried like any delivery.",
  security: SECURITY,
  request: { params: WebhookIdParam },
  responses: { ...jsonResponse(WebhookDeliverySchema, 'The ping and its first attempt.'), ...errorResponses() },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', permission: 'manage' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps, auth } = c.var
  return c.json(await sendTestPing(deps, auth.workspaceId, c.req.valid('param').id), 200)
}
