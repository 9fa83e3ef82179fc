import { z } from '@hono/zod-openapi'
import { INBOX_KINDS, INBOX_STATES, PLATFORM_IDS } from '../domain/vocabulary'

/** One comment or mention read from a network (`GET /v1/inbox/comments`, the `comment.received` event). */
export const InboxCommentSchema = z
  .object({
    id: z.string().openapi({ example: 'cmt_3kqZ7m0pL2aYbN4tR8cVxd' }),
    kind: z.enum(INBOX_KINDS).openapi({
      description: "`comment`: on one of the account's posts; `mention`: a post or comment that mentions the account.",
    }),
    accountId: z.string(),
    platform: z.enum(PLATFORM_IDS),
    postId: z.string().nullable().openapi({ description: 'The post it is on, when that post is known here.' }),
    targetId: z.string().nullable().openapi({ description: "The post's target on this account, when known here." }),
    parentId: z.string().nullable().openapi({ description: 'The comment it answers; null: directly on the post.' }),
    externalId: z.string().openapi({ description: "The network's id of the comment." }),
    permalink: z.string().nullable(),
    author: z.object({
      name: z.string(),
      handle: z.string().nullable(),
      externalId: z.string().nullable(),
      avatarUrl: z.string().nullable(),
    }),
    text: z.string().openapi({ description: 'As the network gave it: escape it before showing it.' }),
    fromAccount: z.boolean().openapi({ description: 'Written by the connected account itself.' }),
    state: z.enum(INBOX_STATES).openapi({
      description: 'By precedence: `hidden` over `replied` over `read` over `unread`.',
    }),
    liked: z.boolean(),
    gone: z.boolean().openapi({ description: 'The network no longer has it (deleted there, or its post).' }),
    createdAt: z.string().openapi({ format: 'date-time', description: "The network's time of the comment." }),
    receivedAt: z.string().openapi({ format: 'date-time', description: 'When the service first read it.' }),
  })
  .openapi('InboxComment')

export type InboxCommentRecord = z.infer<typeof InboxCommentSchema>
