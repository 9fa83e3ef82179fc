import { z } from '@hono/zod-openapi'
import { InboxPageSchema, InboxReplySchema, ListCommentsQuery } from '../../schemas/inbox-api'
import { InboxCommentSchema } from '../../schemas/inbox'
import { listInboxComments } from '../../services/inbox/comments'
import { setCommentHidden } from '../../services/inbox/actions'
import { replyToComment } from '../../services/inbox/reply'
import { defineTool, type McpTool } from '../tool'

const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const
const commentId = z.string().min(1).max(64).meta({ description: 'The comment id (cmt_…) from list_comments.' })

export const listCommentsTool = defineTool({
  name: 'list_comments',
  title: 'Comments on your posts',
  description: [
    'Comments others wrote on the posts of your accounts, newest first, as a page: filter by `accountId`, `platform`,',
    '`postId`, `state` (unread, read, replied, hidden); pass `nextCursor` as `cursor` for more.',
    'Then reply_to_comment or hide_comment.',
  ].join(' '),
  input: ListCommentsQuery,
  output: InboxPageSchema,
  annotations: READ,
  run: ({ deps, workspaceId }, filters) => listInboxComments(deps.db, workspaceId, filters),
})

export const replyToCommentTool = defineTool({
  name: 'reply_to_comment',
  title: 'Reply to a comment',
  description: [
    'Sends `text` as the account’s reply under a comment or mention, at most once. The text is counted like a caption',
    'of that network (`caption_too_long` with the count when over). Give an `idempotencyKey` and call again with it',
    'after a lost answer: it answers the first result, or `reply_unconfirmed` if the reply may be out already.',
    '`action_not_supported` where the network takes no replies.',
  ].join(' '),
  input: z.object({
    id: commentId,
    text: z.string().min(1).max(20_000),
    idempotencyKey: z.string().min(1).max(255).optional(),
  }),
  output: InboxReplySchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  run: ({ deps, workspaceId }, { id, text, idempotencyKey }) =>
    replyToComment(deps, { workspaceId, commentId: id, text, now: deps.clock.now(), idempotencyKey }),
})

export const hideCommentTool = defineTool({
  name: 'hide_comment',
  title: 'Hide or show a comment',
  description:
    'Hides a comment from the public view of the post on its network (`hidden: false` shows it again). ' +
    '`action_not_supported` where the network cannot hide comments; `comment_gone` if it was deleted there.',
  input: z.object({ id: commentId, hidden: z.boolean().default(true) }),
  output: InboxCommentSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  run: ({ deps, workspaceId }, { id, hidden }) => setCommentHidden(deps, { workspaceId, commentId: id, hidden }),
})

export const INBOX_TOOLS: McpTool[] = [listCommentsTool, replyToCommentTool, hideCommentTool]
