import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { callerOf } from '../../http/caller'
import { errorResponses, jsonResponse, SECURITY } from '../../http/openapi'
import type { RouteMeta } from '../../http/route-meta'
import { readAllNotifications } from '../../services/notifications/inbox'
import { ReadAllNotificationsSchema } from '../../schemas/notifications'

export const route = createRoute({
  method: 'post',
  path: '/notifications/read-all',
  operationId: 'markAllNotificationsRead',
  tags: ['Notifications'],
  summary: 'Mark all your notifications in this workspace read',
  security: SECURITY,
  responses: { ...jsonResponse(ReadAllNotificationsSchema, 'How many were unread.'), ...errorResponses(403) },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', permission: 'read' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps } = c.var
  return c.json(await readAllNotifications(deps, callerOf(c)), 200)
}
