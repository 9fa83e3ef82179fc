import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { callerOf } from '../../http/caller'
import { errorResponses, jsonResponse, SECURITY } from '../../http/openapi'
import type { RouteMeta } from '../../http/route-meta'
import { getNotificationPreferences } from '../../services/notifications/inbox'
import { NotificationPreferencesSchema } from '../../schemas/notifications'

export const route = createRoute({
  method: 'get',
  path: '/notification-preferences',
  operationId: 'getNotificationPreferences',
  tags: ['Notifications'],
  summary: 'Which notifications you receive, in the app and by email, per kind',
  security: SECURITY,
  responses: {
    ...jsonResponse(NotificationPreferencesSchema, 'Every kind with its channels (both on by default).'),
    ...errorResponses(403),
  },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', permission: 'read' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps } = c.var
  return c.json(await getNotificationPreferences(deps, callerOf(c)), 200)
}
