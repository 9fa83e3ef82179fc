import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { callerOf } from '../../http/caller'
import { errorResponses, jsonResponse, SECURITY } from '../../http/openapi'
import type { RouteMeta } from '../../http/route-meta'
import { unreadNotificationCount } from '../../services/notifications/inbox'
import { UnreadNotificationsSchema } from '../../schemas/notifications'

export const route = createRoute({
  method: 'get',
  path: '/notifications/unread-count',
  operationId: 'countUnreadNotifications',
  tags: ['Notifications'],
  summary: 'How many of your notifications are unread',
  security: SECURITY,
  responses: { ...jsonResponse(UnreadNotificationsSchema, 'The unread count.'), ...errorResponses(403) },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', permission: 'read' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps } = c.var
  return c.json(await unreadNotificationCount(deps, callerOf(c)), 200)
}
