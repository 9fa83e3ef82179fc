import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { errorResponses, jsonResponse, SECURITY } from '../../http/openapi'
import { listMentions } from '../../services/inbox/comments'
import { InboxPageSchema, ListMentionsQuery } from '../../schemas/inbox-api'
import type { RouteMeta } from '../../http/route-meta'
import { scopeOf } from '../../services/access/visibility'

export const route = createRoute({
  method: 'get',
  path: '/inbox/mentions',
  operationId: 'listInboxMentions',
  tags: ['Inbox'],
  summary: 'Where your accounts were mentioned, newest first',
  description:
    'Posts and comments of others that mention one of your accounts, on the networks whose API lists mentions ' +
    '(`inbox.mentions` in GET /v1/platforms), newest first, paged like GET /v1/inbox/comments (`cursor`, ' +
    '`limit`; filters `accountId`, `platform`, `state`). A mention is answered with ' +
    'POST /v1/inbox/comments/{id}/reply, and read, hidden or liked through the same operations as a comment.',
  security: SECURITY,
  request: { query: ListMentionsQuery },
  responses: { ...jsonResponse(InboxPageSchema, 'A page of mentions, newest first.'), ...errorResponses() },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps, auth } = c.var
  const { groupId, labelId, ...filters } = c.req.valid('query')
  const scope = await scopeOf(deps.db, auth, { groupId, labelId })
  return c.json(await listMentions(deps.db, auth.workspaceId, { ...filters, ...scope }), 200)
}
