import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { errorResponses, jsonBody, jsonResponse, SECURITY } from '../../http/openapi'
import type { RouteMeta } from '../../http/route-meta'
import { replayEvent } from '../../services/webhooks/log'
import { EventIdParam, ReplayedEventSchema, ReplayEventSchema } from '../../schemas/events'

export const route = createRoute({
  method: 'post',
  path: '/events/{id}/replay',
  operationId: 'replayEvent',
  tags: ['Webhooks'],
  summary: 'Send an event again',
  description:
    'Sends the stored event again, unchanged (same `webhook-id`, so a receiver that de-duplicates sees it once), ' +
    'to `endpointId` or to every enabled endpoint subscribed to its type. Answers the new deliveries.',
  security: SECURITY,
  request: { params: EventIdParam, body: jsonBody(ReplayEventSchema) },
  responses: { ...jsonResponse(ReplayedEventSchema, 'The deliveries made.'), ...errorResponses() },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', permission: 'manage' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps, auth } = c.var
  return c.json(await replayEvent(deps, auth.workspaceId, c.req.valid('param').id, c.req.valid('json')), 200)
}
