import { z } from '@hono/zod-openapi'
import { ACTOR_KINDS } from '../domain/access'
import { REVIEW_LINK_DAYS } from '../domain/review-links'

export const ReviewLinkIdParam = z.object({
  id: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: 'id', in: 'path' }, example: 'rvl_3kqZ7m0pL2aYbN4tR8cVxd' }),
})

export const CreateReviewLinkSchema = z
  .object({
    groupId: z.string().min(1).max(64).openapi({
      description: 'The account group whose upcoming posts the link shows.',
      example: 'grp_3kqZ7m0pL2aYbN4tR8cVxd',
    }),
    name: z.string().min(1).max(100).openapi({
      description: 'What the team calls the link (who it was sent to).',
      example: 'Acme marketing team',
    }),
    expiresInDays: z
      .number()
      .int()
      .min(REVIEW_LINK_DAYS.min)
      .max(REVIEW_LINK_DAYS.max)
      .optional()
      .openapi({ description: `Days until the link stops working; ${REVIEW_LINK_DAYS.default} when absent.` }),
  })
  .openapi('CreateReviewLink')

const ActorSchema = z
  .object({
    kind: z.enum(ACTOR_KINDS),
    id: z.string().nullable(),
    name: z.string(),
  })
  .openapi('ReviewLinkCreator')

export const ReviewLinkSchema = z
  .object({
    id: z.string().openapi({ example: 'rvl_3kqZ7m0pL2aYbN4tR8cVxd' }),
    groupId: z.string(),
    groupName: z.string(),
    name: z.string(),
    state: z.enum(['active', 'expired', 'revoked']).openapi({ description: 'Whether the link still opens.' }),
    createdBy: ActorSchema,
    expiresAt: z.string().openapi({ format: 'date-time' }),
    revokedAt: z.string().nullable().openapi({ format: 'date-time' }),
    lastUsedAt: z
      .string()
      .nullable()
      .openapi({ format: 'date-time', description: 'When the page was last opened (noted at most once a minute).' }),
    createdAt: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('ReviewLink')

export const CreatedReviewLinkSchema = ReviewLinkSchema.extend({
  url: z.string().openapi({
    description: 'The page to send: it carries the link’s token, shown only in this answer and never stored.',
    example: 'https://social.example.com/review/rvl_3kqZ7m0pL2aYbN4tR8cVxd.1767225600.…',
  }),
}).openapi('CreatedReviewLink')
