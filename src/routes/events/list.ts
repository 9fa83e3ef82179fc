import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { errorResponses, jsonResponse, SECURITY } from '../../http/openapi'
import type { RouteMeta } from '../../http/route-meta'
import { EVENT_RETENTION_DAYS } from '../../domain/webhooks/policy'
import { listEvents } from '../../services/webhooks/log'
import { ListEventsQuery, WEBHOOK_PAGE_DEFAULT } from '../../schemas/webhooks'
import { WebhookEventPageSchema } from '../../schemas/events'

export const route = createRoute({
  method: 'get',
  path: '/events',
  operationId: 'listEvents',
  tags: ['Webhooks'],
  summary: "The workspace's events",
  description:
    `Every event of the last ${EVENT_RETENTION_DAYS} days, newest first, whether or not an endpoint ` +
    'subscribed to it; each as its deliveries carry it. Filter by `type`; pass `nextCursor` as `cursor` for the ' +
    'next page.',
  security: SECURITY,
  request: { query: ListEventsQuery },
  responses: { ...jsonResponse(WebhookEventPageSchema, 'A page of events.'), ...errorResponses() },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', permission: 'manage' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps, auth } = c.var
  const { limit, ...query } = c.req.valid('query')
  return c.json(await listEvents(deps, auth.workspaceId, { ...query, limit: limit ?? WEBHOOK_PAGE_DEFAULT }), 200)
}
