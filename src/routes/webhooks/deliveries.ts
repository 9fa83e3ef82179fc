import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { errorResponses, jsonResponse, SECURITY } from '../../http/openapi'
import type { RouteMeta } from '../../http/route-meta'
import { listDeliveries } from '../../services/webhooks/log'
import {
  ListDeliveriesQuery,
  WEBHOOK_PAGE_DEFAULT,
  WebhookDeliveryPageSchema,
  WebhookIdParam,
} from '../../schemas/webhooks'

export const route = createRoute({
  method: 'get',
  path: '/webhooks/{id}/deliveries',
  operationId: 'listWebhookDeliveries',
  tags: ['Webhooks'],
  summary: "An endpoint's delivery log",
  description:
    'One entry per (event, endpoint), newest first, each with its attempts (status, duration, the first KiB of ' +
    'the answer, the class of a failure). Filter by `status` and `eventType`; pass `nextCursor` as `cursor` ' +
    'for the next page. An endpoint the service disabled has an `endpoint.disabled` entry.',
  security: SECURITY,
  request: { params: WebhookIdParam, query: ListDeliveriesQuery },
  responses: { ...jsonResponse(WebhookDeliveryPageSchema, 'A page of deliveries.'), ...errorResponses() },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', permission: 'manage' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps, auth } = c.var
  const { limit, ...query } = c.req.valid('query')
  const page = { ...query, limit: limit ?? WEBHOOK_PAGE_DEFAULT }
  return c.json(await listDeliveries(deps, auth.workspaceId, c.req.valid('param').id, page), 200)
}
