import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { callerOf } from '../../http/caller'
import { errorResponses, jsonResponse, SECURITY } from '../../http/openapi'
import type { RouteMeta } from '../../http/route-meta'
import { readNotification } from '../../services/notifications/inbox'
import { NotificationIdParam, NotificationSchema } from '../../schemas/notifications'

export const route = createRoute({
  method: 'post',
  path: '/notifications/{id}/read',
  operationId: 'markNotificationRead',
  tags: ['Notifications'],
  summary: 'Mark one of your notifications read',
  security: SECURITY,
  request: { params: NotificationIdParam },
  responses: { ...jsonResponse(NotificationSchema, 'The notification, read.'), ...errorResponses(403) },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', permission: 'read' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps } = c.var
  return c.json(await readNotification(deps, callerOf(c), c.req.valid('param').id), 200)
}
