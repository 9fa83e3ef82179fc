import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { errorResponses, jsonResponse, SECURITY } from '../../http/openapi'
import { markCommentRead } from '../../services/inbox/comments'
import { CommentIdParam } from '../../schemas/inbox-api'
import { InboxCommentSchema } from '../../schemas/inbox'
import type { RouteMeta } from '../../http/route-meta'

export const route = createRoute({
  method: 'post',
  path: '/inbox/comments/{id}/unread',
  operationId: 'markInboxCommentUnread',
  tags: ['Inbox'],
  summary: 'Mark a comment unread',
  description:
    'Marks the comment unread again (here only). A replied or hidden comment keeps that state.',
  security: SECURITY,
  request: { params: CommentIdParam },
  responses: { ...jsonResponse(InboxCommentSchema, 'The comment, updated.'), ...errorResponses() },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps, auth } = c.var
  const id = c.req.valid('param').id
  return c.json(await markCommentRead(deps.db, { workspaceId: auth.workspaceId, id, read: false, now: deps.clock.now() }), 200)
}
