import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { callerOf } from '../../http/caller'
import { errorResponses, jsonResponse, SECURITY } from '../../http/openapi'
import type { RouteMeta } from '../../http/route-meta'
import { updateNotificationPreferences } from '../../services/notifications/inbox'
import { NotificationPreferencesSchema, UpdateNotificationPreferencesSchema } from '../../schemas/notifications'

export const route = createRoute({
  method: 'put',
  path: '/notification-preferences',
  operationId: 'updateNotificationPreferences',
  tags: ['Notifications'],
  summary: 'Choose which notifications you receive, per kind',
  description: 'The kinds given change; a channel left out keeps its value. Answers every kind.',
  security: SECURITY,
  request: {
    body: { content: { 'application/json': { schema: UpdateNotificationPreferencesSchema } }, required: true },
  },
  responses: {
    ...jsonResponse(NotificationPreferencesSchema, 'Every kind with its channels.'),
    ...errorResponses(403, 413, 415),
  },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', permission: 'read' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps } = c.var
  return c.json(await updateNotificationPreferences(deps, callerOf(c), c.req.valid('json').preferences), 200)
}
