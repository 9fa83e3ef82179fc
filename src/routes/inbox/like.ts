import type { RouteMeta } from '../../http/route-meta'
import { likeInboxComment } from '../../services/inbox/actions'
import { commentActionHandler, commentActionRoute } from './comment-action'

export const route = commentActionRoute({
  action: 'like',
  operationId: 'likeInboxComment',
  summary: 'Like a comment as the account',
  description: 'Likes the comment as the account that received it (`liked: true`).',
  capability: 'inbox.like',
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', scope: 'comment' }

export const handler = commentActionHandler(likeInboxComment)
