import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { callerOf } from '../../http/caller'
import { errorResponses, jsonResponse, SECURITY } from '../../http/openapi'
import type { RouteMeta } from '../../http/route-meta'
import { listNotifications } from '../../services/notifications/inbox'
import { ListNotificationsQuery, NotificationPageSchema } from '../../schemas/notifications'

export const route = createRoute({
  method: 'get',
  path: '/notifications',
  operationId: 'listNotifications',
  tags: ['Notifications'],
  summary: 'Your notifications in this workspace, newest first',
  description: 'The notifications of the person the token belongs to; a token created by no user is refused with 403.',
  security: SECURITY,
  request: { query: ListNotificationsQuery },
  responses: { ...jsonResponse(NotificationPageSchema, 'A page of notifications.'), ...errorResponses(403) },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', permission: 'read' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps } = c.var
  const q = c.req.valid('query')
  return c.json(
    await listNotifications(deps, callerOf(c), { unread: q.unread === 'true', cursor: q.cursor, limit: q.limit }),
    200,
  )
}
