import { z } from '@hono/zod-openapi'
import { InboxPageSchema, InboxReplySchema } from '../../schemas/inbox-api'
import { INBOX_STATES } from '../../domain/vocabulary'
import { InboxCommentSchema } from '../../schemas/inbox'
import { listInboxComments } from '../../services/inbox/comments'
import { setCommentHidden } from '../../services/inbox/actions'
import { replyToComment } from '../../services/inbox/reply'
import { defineTool, type McpTool } from '../tool'
import { assertCommentVisible, scopeOf } from '../../services/access/visibility'

const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const
const commentId = z.string().min(1).max(64)

export const listCommentsTool = defineTool({
  name: 'list_comments',
  title: 'Comments on your posts',
  description:
    'Comments on your posts, newest first (GET /v1/inbox/comments): filters accountId, postId, state, groupId; ' +
    'pass nextCursor as cursor for more. Then reply_to_comment or hide_comment.',
  // Lean on purpose (tools/list is counted): the REST query without its descriptions and platform filter.
  input: z.object({
    accountId: z.string().min(1).max(64).optional(),
    postId: z.string().min(1).max(64).optional(),
    state: z.enum(INBOX_STATES).optional(),
    groupId: z.string().min(1).max(64).optional(),
    cursor: z.string().min(1).max(100).optional(),
    limit: z.number().int().min(1).max(100).optional(),
  }),
  output: InboxPageSchema,
  annotations: READ,
  run: async (ctx, { groupId, ...filters }) => {
    const scope = await scopeOf(ctx.deps.db, ctx, { groupId })
    return listInboxComments(ctx.deps.db, ctx.workspaceId, { ...filters, ...scope })
  },
})

export const replyToCommentTool = defineTool({
  name: 'reply_to_comment',
  title: 'Reply to a comment',
  description:
    'Replies under a comment or mention, at most once; text counted like a caption (caption_too_long). ' +
    'Retry with the same idempotencyKey: the first result, or reply_unconfirmed if it may be out already.',
  input: z.object({
    id: commentId,
    text: z.string().min(1).max(20_000),
    idempotencyKey: z.string().min(1).max(255).optional(),
  }),
  output: InboxReplySchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  run: async (ctx, { id, text, idempotencyKey }) => {
    await assertCommentVisible(ctx.deps.db, ctx, id)
    const { deps, workspaceId } = ctx
    return replyToComment(deps, { workspaceId, commentId: id, text, now: deps.clock.now(), idempotencyKey })
  },
})

export const hideCommentTool = defineTool({
  name: 'hide_comment',
  title: 'Hide or show a comment',
  description:
    'Hides a comment (id from list_comments) on its network; `hidden: false` shows it again. A network that cannot hide: 422 `action_not_supported`; a comment deleted there: 409 `comment_gone`.',
  input: z.object({ id: commentId, hidden: z.boolean().default(true) }),
  output: InboxCommentSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  run: async (ctx, { id, hidden }) => {
    await assertCommentVisible(ctx.deps.db, ctx, id)
    return setCommentHidden(ctx.deps, { workspaceId: ctx.workspaceId, commentId: id, hidden })
  },
})

export const INBOX_TOOLS: McpTool[] = [listCommentsTool, replyToCommentTool, hideCommentTool]
