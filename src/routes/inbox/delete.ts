import { createRoute, z, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { errorResponses, jsonResponse, SECURITY } from '../../http/openapi'
import { deleteInboxComment } from '../../services/inbox/actions'
import { CommentIdParam } from '../../schemas/inbox-api'
import type { RouteMeta } from '../../http/route-meta'

const DeletedSchema = z.object({ id: z.string(), deleted: z.literal(true) }).openapi('DeletedComment')

export const route = createRoute({
  method: 'delete',
  path: '/inbox/comments/{id}',
  operationId: 'deleteInboxComment',
  tags: ['Inbox'],
  summary: 'Delete a comment on its network',
  description:
    'Deletes the comment on its network (the account must be allowed to: a comment on its own post, or its own ' +
    'reply), then drops it and the replies under it from the inbox. 422 `action_not_supported` where the network ' +
    'does not allow it (`inbox.delete` in GET /v1/platforms); 409 `comment_gone` when it was already deleted there ' +
    '(it is then marked gone); the network asking to wait is 429 with its wait.',
  security: SECURITY,
  request: { params: CommentIdParam },
  responses: { ...jsonResponse(DeletedSchema, 'The comment is deleted.'), ...errorResponses(409, 422) },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', scope: 'comment' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps, auth } = c.var
  return c.json(
    await deleteInboxComment(deps, { workspaceId: auth.workspaceId, commentId: c.req.valid('param').id }),
    200,
  )
}
