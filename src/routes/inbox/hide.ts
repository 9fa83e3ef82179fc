import type { RouteMeta } from '../../http/route-meta'
import { setCommentHidden } from '../../services/inbox/actions'
import { commentActionHandler, commentActionRoute } from './comment-action'

export const route = commentActionRoute({
  action: 'hide',
  operationId: 'hideInboxComment',
  summary: 'Hide a comment on its network',
  description:
    'Hides the comment from the post’s public view on its network (its author may still see it), and marks it `hidden`.',
  capability: 'inbox.hide',
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', scope: 'comment' }

export const handler = commentActionHandler((deps, target) => setCommentHidden(deps, { ...target, hidden: true }))
