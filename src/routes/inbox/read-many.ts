import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { errorResponses, jsonResponse, SECURITY } from '../../http/openapi'
import { markCommentsRead } from '../../services/inbox/comments'
import { MarkReadAnswerSchema, MarkReadBodySchema } from '../../schemas/inbox-api'
import type { RouteMeta } from '../../http/route-meta'

export const route = createRoute({
  method: 'post',
  path: '/inbox/comments/read',
  operationId: 'markInboxCommentsRead',
  tags: ['Inbox'],
  summary: 'Mark several comments read or unread',
  description:
    'Marks up to 100 comments (or mentions) read, or unread with `read: false`, all or none: an id that is not ' +
    'one of the workspace’s comments is 422 `invalid_option` naming it (`details[].path`: `commentIds.<i>`), and ' +
    'nothing is marked. Here only: networks are not told.',
  security: SECURITY,
  request: { body: { content: { 'application/json': { schema: MarkReadBodySchema } }, required: true } },
  responses: { ...jsonResponse(MarkReadAnswerSchema, 'The comments found and marked.'), ...errorResponses(422) },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps, auth } = c.var
  const { commentIds, read } = c.req.valid('json')
  const updated = await markCommentsRead(deps.db, {
    workspaceId: auth.workspaceId,
    ids: commentIds,
    read,
    now: deps.clock.now(),
    visibleGroupIds: auth.access.groupIds,
  })
  return c.json({ updated }, 200)
}
