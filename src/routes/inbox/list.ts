import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { errorResponses, jsonResponse, SECURITY } from '../../http/openapi'
import { listInboxComments } from '../../services/inbox/comments'
import { InboxPageSchema, ListCommentsQuery } from '../../schemas/inbox-api'
import type { RouteMeta } from '../../http/route-meta'
import { scopeOf } from '../../services/access/visibility'

export const route = createRoute({
  method: 'get',
  path: '/inbox/comments',
  operationId: 'listInboxComments',
  tags: ['Inbox'],
  summary: 'Comments on your posts, newest first',
  description:
    'What others wrote on the posts of your accounts (published through this service or imported), on every ' +
    'network whose API lists comments (`inbox.comments` in GET /v1/platforms), newest first (ties by id). Your ' +
    'own replies show in each comment’s thread (GET /v1/inbox/comments/{id}), not here. Filters: `accountId`, ' +
    '`platform`, `postId`, `state` (`unread`, `read`, `replied`, `hidden`; a hidden comment is `hidden` whatever ' +
    'else it is, then `replied`, then `read`). A page `{ data, nextCursor }`: pass `nextCursor` as `cursor` (with ' +
    'the same filters) until it is null; comments arriving meanwhile do not shift the pages. An unknown `cursor` ' +
    'is 400. A comment deleted on its network since it was read is listed with `gone: true`. The unread count is ' +
    'GET /v1/inbox/unread-count.',
  security: SECURITY,
  request: { query: ListCommentsQuery },
  responses: { ...jsonResponse(InboxPageSchema, 'A page of comments, newest first.'), ...errorResponses() },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps, auth } = c.var
  const { groupId, labelId, ...filters } = c.req.valid('query')
  const scope = await scopeOf(deps.db, auth, { groupId, labelId })
  return c.json(await listInboxComments(deps.db, auth.workspaceId, { ...filters, ...scope }), 200)
}
