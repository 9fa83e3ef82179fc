import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { errorResponses, jsonBody, jsonResponse, SECURITY } from '../../http/openapi'
import { replaceQueueSchedule } from '../../services/queue-slots'
import { QueueScheduleSchema, ReplaceQueueScheduleSchema } from '../../schemas/queue-slots'
import type { RouteMeta } from '../../http/route-meta'

export const route = createRoute({
  method: 'put',
  path: '/queue-slots',
  operationId: 'replaceQueueSlots',
  tags: ['Queue'],
  summary: 'Replace the weekly posting schedule',
  description:
    'Replaces every slot at once (an empty list clears the schedule). Each slot occurrence holds one post. Posts already queued keep the time they were given.',
  security: SECURITY,
  request: { body: jsonBody(ReplaceQueueScheduleSchema) },
  responses: { ...jsonResponse(QueueScheduleSchema, 'The new schedule.'), ...errorResponses() },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', permission: 'publish' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps, auth } = c.var
  return c.json(await replaceQueueSchedule(deps.db, auth.workspaceId, c.req.valid('json'), deps.clock.now()), 200)
}
