import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { errorResponses, jsonResponse, SECURITY } from '../../http/openapi'
import { getInboxComment } from '../../services/inbox/comments'
import { CommentIdParam, CommentThreadSchema } from '../../schemas/inbox-api'
import type { RouteMeta } from '../../http/route-meta'

export const route = createRoute({
  method: 'get',
  path: '/inbox/comments/{id}',
  operationId: 'getInboxComment',
  tags: ['Inbox'],
  summary: 'A comment with its thread',
  description:
    'The comment (or mention), the comments it answers (`ancestors`, the first one first), the replies under it ' +
    '(`replies`, yours included with `fromAccount: true`, oldest first) and the replies sent to it through this ' +
    'service with their status (`sentReplies`: `SENT`, `FAILED`, or `UNCONFIRMED` when its outcome is unknown). ' +
    'Reading it does not mark it read (POST /v1/inbox/comments/{id}/read does). Another workspace’s comment is 404.',
  security: SECURITY,
  request: { params: CommentIdParam },
  responses: { ...jsonResponse(CommentThreadSchema, 'The comment and its thread.'), ...errorResponses() },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', scope: 'comment' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps, auth } = c.var
  return c.json(await getInboxComment(deps.db, auth.workspaceId, c.req.valid('param').id), 200)
}
