import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { errorResponses, jsonResponse, SECURITY } from '../../http/openapi'
import { countUnread } from '../../services/inbox/comments'
import { UnreadCountSchema } from '../../schemas/inbox-api'
import type { RouteMeta } from '../../http/route-meta'

export const route = createRoute({
  method: 'get',
  path: '/inbox/unread-count',
  operationId: 'countInboxUnread',
  tags: ['Inbox'],
  summary: 'How many comments and mentions are unread',
  description:
    'Unread comments and mentions of the workspace (written by others, not deleted on their network), together ' +
    'and apart: what a navigation badge shows. A comment stops counting once it is read, replied to or hidden.',
  security: SECURITY,
  responses: { ...jsonResponse(UnreadCountSchema, 'The unread counts.'), ...errorResponses() },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps, auth } = c.var
  return c.json(await countUnread(deps.db, auth.workspaceId, { visibleGroupIds: auth.access.groupIds }), 200)
}
