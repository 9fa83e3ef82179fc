import type { RouteMeta } from '../../http/route-meta'
import { markCommentRead } from '../../services/inbox/comments'
import { commentActionHandler, commentActionRoute } from './comment-action'

export const route = commentActionRoute({
  action: 'read',
  operationId: 'markInboxCommentRead',
  summary: 'Mark a comment read',
  description:
    'Marks the comment read (here only; networks are not told). A replied or hidden comment keeps that state.',
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', scope: 'comment' }

export const handler = commentActionHandler((deps, target) =>
  markCommentRead(deps.db, {
    workspaceId: target.workspaceId,
    id: target.commentId,
    read: true,
    now: deps.clock.now(),
  }),
)
