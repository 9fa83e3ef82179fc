import { createRoute, z, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { errorResponses, jsonResponse, SECURITY } from '../../http/openapi'
import type { RouteMeta } from '../../http/route-meta'
import { deleteEndpoint } from '../../services/webhooks/endpoints'
import { WebhookIdParam } from '../../schemas/webhooks'

export const route = createRoute({
  method: 'delete',
  path: '/webhooks/{id}',
  operationId: 'deleteWebhookEndpoint',
  tags: ['Webhooks'],
  summary: 'Delete a webhook endpoint',
  description: 'Nothing more is sent to it; its delivery log goes with it. The events stay.',
  security: SECURITY,
  request: { params: WebhookIdParam },
  responses: {
    ...jsonResponse(
      z.object({ id: z.string(), deleted: z.literal(true) }).openapi('DeletedWebhookEndpoint'),
      'The endpoint is gone.',
    ),
    ...errorResponses(),
  },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', permission: 'manage' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps, auth } = c.var
  return c.json(await deleteEndpoint(deps, auth.workspaceId, c.req.valid('param').id), 200)
}
