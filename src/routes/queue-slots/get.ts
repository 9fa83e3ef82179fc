import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { errorResponses, jsonResponse, SECURITY } from '../../http/openapi'
import { getQueueSchedule } from '../../services/queue-slots'
import { QueueScheduleSchema } from '../../schemas/queue-slots'
import type { RouteMeta } from '../../http/route-meta'

export const route = createRoute({
  method: 'get',
  path: '/queue-slots',
  operationId: 'getQueueSlots',
  tags: ['Queue'],
  summary: 'The weekly posting schedule that `action: queue` publishes into',
  description:
    'Workspace-wide, shared by every account, in the workspace time zone; ordered by weekday then time. ' +
    '`nextFreeSlot` is the occurrence a post created now with `action: queue` would take.',
  security: SECURITY,
  responses: { ...jsonResponse(QueueScheduleSchema, 'The schedule.'), ...errorResponses() },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', permission: 'read' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps, auth } = c.var
  return c.json(await getQueueSchedule(deps.db, auth.workspaceId, deps.clock.now()), 200)
}
