/**
 * The requests and answers of `/v1/inbox` (reading and answering comments and mentions). The
 * comment record itself, `InboxComment`, is in `inbox.ts`.
 */
import { z } from '@hono/zod-openapi'
import { INBOX_PAGE_DEFAULT, INBOX_PAGE_MAX } from '../services/inbox/comments'
import { INBOX_REPLY_STATUSES, INBOX_STATES, PLATFORM_IDS } from '../domain/vocabulary'
import { InboxCommentSchema } from './inbox'

const EXAMPLE_COMMENT = 'cmt_3kqZ7m0pL2aYbN4tR8cVxd'

export const CommentIdParam = z.object({
  id: z
    .string()
    .min(1)
    .max(64)
    .openapi({
      param: { name: 'id', in: 'path' },
      example: EXAMPLE_COMMENT,
      description: 'The comment (or mention).',
      'x-id-of': 'comment',
    }),
})

const pageFields = {
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(INBOX_PAGE_MAX)
    .optional()
    .openapi({
      param: { name: 'limit', in: 'query' },
      description: `Page size, default ${INBOX_PAGE_DEFAULT}, at most ${INBOX_PAGE_MAX}.`,
    }),
  cursor: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .openapi({
      param: { name: 'cursor', in: 'query' },
      description: 'The `nextCursor` of the previous page, as given (opaque), with the same filters.',
    }),
}

const accountFilter = z
  .string()
  .min(1)
  .max(64)
  .optional()
  .openapi({ param: { name: 'accountId', in: 'query' }, description: 'Only this account’s comments.' })
const platformFilter = z
  .enum(PLATFORM_IDS)
  .optional()
  .openapi({ param: { name: 'platform', in: 'query' }, description: 'Only this network’s comments.' })
const stateFilter = z
  .enum(INBOX_STATES)
  .optional()
  .openapi({
    param: { name: 'state', in: 'query' },
    description: 'Only comments in this state: `unread`, `read`, `replied` or `hidden`.',
  })

const groupFilter = z
  .string()
  .min(1)
  .max(64)
  .optional()
  .openapi({ description: 'Only the accounts of this account group; an unknown group is 404.' })

export const ListCommentsQuery = z.object({
  accountId: accountFilter,
  platform: platformFilter,
  postId: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .openapi({ param: { name: 'postId', in: 'query' }, description: 'Only the comments on this post.' }),
  state: stateFilter,
  groupId: groupFilter,
  labelId: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .openapi({ description: 'Only the comments on posts with this label; an unknown label is 404.' }),
  ...pageFields,
})

export const ListMentionsQuery = z.object({
  accountId: accountFilter,
  platform: platformFilter,
  state: stateFilter,
  groupId: groupFilter,
  labelId: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .openapi({ description: 'Only the mentions in replies to posts with this label; an unknown label is 404.' }),
  ...pageFields,
})

export const InboxPageSchema = z
  .object({
    data: z.array(InboxCommentSchema),
    nextCursor: z
      .string()
      .nullable()
      .openapi({ description: 'Pass it as `cursor` for the next page; null on the last page.' }),
  })
  .openapi('InboxPage')

export const InboxReplySchema = z
  .object({
    id: z.string().openapi({ example: 'rpl_3kqZ7m0pL2aYbN4tR8cVxd' }),
    commentId: z.string().openapi({ description: 'The comment answered.' }),
    text: z.string(),
    status: z.enum(INBOX_REPLY_STATUSES).openapi({
      description:
        '`SENT` once the network took it; `UNCONFIRMED` when its call started but its outcome was never ' +
        'recorded (it is never sent again by itself); `FAILED` when the network refused it; `PENDING`/`SENDING` meanwhile.',
    }),
    externalId: z.string().nullable().openapi({ description: 'Its id on the network, once sent.' }),
    permalink: z.string().nullable(),
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
    createdAt: z.string().openapi({ format: 'date-time' }),
    sentAt: z.string().nullable().openapi({ format: 'date-time' }),
    comment: InboxCommentSchema.nullable().openapi({
      description: 'The reply as it shows in the thread (`fromAccount: true`), once sent.',
    }),
  })
  .openapi('InboxReply')

export const CommentThreadSchema = z
  .object({
    comment: InboxCommentSchema,
    ancestors: z.array(InboxCommentSchema).openapi({ description: 'The comments it answers, the first one first.' }),
    replies: z
      .array(InboxCommentSchema)
      .openapi({ description: 'The replies under it (and theirs), oldest first; each names its `parentId`.' }),
    sentReplies: z
      .array(InboxReplySchema.omit({ comment: true }))
      .openapi({ description: 'Replies sent to it through this service, with their status, oldest first.' }),
  })
  .openapi('CommentThread')

export const ReplyBodySchema = z
  .object({
    text: z
      .string()
      .min(1)
      .max(20_000)
      .openapi({ description: 'The reply, counted like a caption of the comment’s network.', example: 'Thank you!' }),
  })
  .openapi('ReplyToComment')

export const MarkReadBodySchema = z
  .object({
    commentIds: z
      .array(z.string().min(1).max(64))
      .min(1)
      .max(100)
      .openapi({ description: 'Comment ids (up to 100), all of the workspace.' }),
    read: z.boolean().default(true).openapi({ description: 'true marks them read, false unread.' }),
  })
  .openapi('MarkCommentsRead')

export const MarkReadAnswerSchema = z.object({ updated: z.array(InboxCommentSchema) }).openapi('MarkedComments')

export const UnreadCountSchema = z
  .object({
    unread: z.number().int().openapi({ description: 'Unread comments and mentions together.' }),
    comments: z.number().int(),
    mentions: z.number().int(),
  })
  .openapi('InboxUnreadCount')
