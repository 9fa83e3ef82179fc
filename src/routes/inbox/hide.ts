import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { errorResponses, jsonResponse, SECURITY } from '../../http/openapi'
import { setCommentHidden } from '../../services/inbox/actions'
import { CommentIdParam } from '../../schemas/inbox-api'
import { InboxCommentSchema } from '../../schemas/inbox'
import type { RouteMeta } from '../../http/route-meta'

export const route = createRoute({
  method: 'post',
  path: '/inbox/comments/{id}/hide',
  operationId: 'hideInboxComment',
  tags: ['Inbox'],
  summary: 'Hide a comment on its network',
  description:
    'Hides the comment from the post’s public view on its network (its author may still see it), and marks it `hidden`. ' + '422 `action_not_supported` where the network does not allow it (`inbox.hide` in GET /v1/platforms); 409 `comment_gone` when the comment was deleted on the network meanwhile (it is then marked gone); the network asking to wait is 429 with its wait.',
  security: SECURITY,
  request: { params: CommentIdParam },
  responses: { ...jsonResponse(InboxCommentSchema, 'The comment, updated.'), ...errorResponses(409, 422) },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps, auth } = c.var
  const id = c.req.valid('param').id
  return c.json(await setCommentHidden(deps, { workspaceId: auth.workspaceId, commentId: id, hidden: true }), 200)
}
