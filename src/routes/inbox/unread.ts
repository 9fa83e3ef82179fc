import type { RouteMeta } from '../../http/route-meta'
import { markCommentRead } from '../../services/inbox/comments'
import { commentActionHandler, commentActionRoute } from './comment-action'

export const route = commentActionRoute({
  action: 'unread',
  operationId: 'markInboxCommentUnread',
  summary: 'Mark a comment unread',
  description: 'Marks the comment unread again (here only). A replied or hidden comment keeps that state.',
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', scope: 'comment' }

export const handler = commentActionHandler((deps, target) =>
  markCommentRead(deps.db, {
    workspaceId: target.workspaceId,
    id: target.commentId,
    read: false,
    now: deps.clock.now(),
  }),
)
