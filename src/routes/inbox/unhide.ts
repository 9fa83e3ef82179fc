import type { RouteMeta } from '../../http/route-meta'
import { setCommentHidden } from '../../services/inbox/actions'
import { commentActionHandler, commentActionRoute } from './comment-action'

export const route = commentActionRoute({
  action: 'unhide',
  operationId: 'unhideInboxComment',
  summary: 'Show a hidden comment again',
  description: 'Shows a hidden comment again on its network; its state goes back to `replied`, `read` or `unread`.',
  capability: 'inbox.hide',
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', scope: 'comment' }

export const handler = commentActionHandler((deps, target) => setCommentHidden(deps, { ...target, hidden: false }))
