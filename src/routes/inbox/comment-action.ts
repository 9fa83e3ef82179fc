/** What the one-comment actions (hide, unhide, like, read, unread) share: their route shape and handler body. */
import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { errorResponses, jsonResponse, SECURITY } from '../../http/openapi'
import type { InboxCommentRecord } from '../../services/inbox/record'
import { CommentIdParam } from '../../schemas/inbox-api'
import { InboxCommentSchema } from '../../schemas/inbox'

export interface CommentActionDoc {
  /** The action's last path segment: `/inbox/comments/{id}/<action>`. */
  action: string
  operationId: string
  summary: string
  description: string
  /** The capability in GET /v1/platforms when the network is told (`inbox.hide`); absent for actions kept here. */
  capability?: string
}

/** Why a network action can fail, appended to its description. */
function networkFailures(capability: string): string {
  return (
    ` 422 \`action_not_supported\` where the network does not allow it (\`${capability}\` in GET /v1/platforms); ` +
    '409 `comment_gone` when the comment was deleted on the network meanwhile (it is then marked gone); ' +
    'the network asking to wait is 429 with its wait.'
  )
}

export function commentActionRoute(doc: CommentActionDoc) {
  return createRoute({
    method: 'post',
    path: `/inbox/comments/{id}/${doc.action}`,
    operationId: doc.operationId,
    tags: ['Inbox'],
    summary: doc.summary,
    description: doc.capability ? doc.description + networkFailures(doc.capability) : doc.description,
    security: SECURITY,
    request: { params: CommentIdParam },
    responses: {
      ...jsonResponse(InboxCommentSchema, 'The comment, updated.'),
      ...(doc.capability ? errorResponses(409, 422) : errorResponses()),
    },
  })
}

export type CommentActionRoute = ReturnType<typeof commentActionRoute>

type CommentAction = (
  deps: AppEnv['Variables']['deps'],
  target: { workspaceId: string; commentId: string },
) => Promise<InboxCommentRecord>

/** The handler: the caller's comment, the action on it, the updated comment as 200. */
export function commentActionHandler(act: CommentAction): RouteHandler<CommentActionRoute, AppEnv> {
  return async (c) => {
    const { deps, auth } = c.var
    return c.json(await act(deps, { workspaceId: auth.workspaceId, commentId: c.req.valid('param').id }), 200)
  }
}
