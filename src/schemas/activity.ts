/** `GET /v1/activity`: the query, one entry, a page. */
import { z } from '@hono/zod-openapi'
import { ACTOR_KINDS } from '../domain/access'
import { IsoInstantSchema } from '../domain/post-content'
import { ACTIVITY_PAGE_DEFAULT, ACTIVITY_PAGE_MAX } from '../services/activity/list'

const param = (name: string, description: string) => ({ param: { name, in: 'query' as const }, description })

const Instant = IsoInstantSchema

export const ActivityQuerySchema = z.object({
  actorKind: z
    .enum(ACTOR_KINDS)
    .optional()
    .openapi(param('actorKind', 'Only entries of this kind of actor: user, token, agent, review_link or system.')),
  actorId: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .openapi(param('actorId', 'Only entries of this actor (a user id, an API token id, a review link id).')),
  action: z
    .string()
    .min(1)
    .max(100)
    .regex(/^[a-z_]+(\.[a-z_]*)*$/)
    .optional()
    .openapi(
      param('action', 'Only this action (`post.created`), or every action under a prefix ending with a dot (`post.`).'),
    ),
  subjectType: z
    .string()
    .min(1)
    .max(50)
    .optional()
    .openapi(param('subjectType', 'Only entries about this kind of thing: post, account, token, member, ...')),
  subjectId: z.string().min(1).max(100).optional().openapi(param('subjectId', 'Only entries about this one thing.')),
  from: Instant.optional().openapi(param('from', 'Only entries at or after this instant (ISO 8601 with offset).')),
  to: Instant.optional().openapi(param('to', 'Only entries before this instant (ISO 8601 with offset).')),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(ACTIVITY_PAGE_MAX)
    .optional()
    .openapi(param('limit', `Page size, default ${ACTIVITY_PAGE_DEFAULT}, at most ${ACTIVITY_PAGE_MAX}.`)),
  cursor: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .openapi(param('cursor', 'The `nextCursor` of the previous page (opaque).')),
})

export const ActorSchema = z
  .object({
    kind: z.enum(ACTOR_KINDS),
    id: z.string().nullable().openapi({ description: 'The user, token or review link id; null for the service.' }),
    name: z.string().openapi({ description: 'The name as it was when the entry was written.' }),
  })
  .openapi('Actor')

export const ActivityEntrySchema = z
  .object({
    id: z.string().openapi({ example: 'act_3kqZ7m0pL2aYbN4tR8cVxd' }),
    at: z.string().openapi({ format: 'date-time' }),
    actor: ActorSchema,
    action: z
      .string()
      .openapi({ description: 'Dotted: `post.created`, `account.disconnected`, ...', example: 'post.scheduled' }),
    subject: z.object({ type: z.string(), id: z.string().nullable() }),
    summary: z.string().openapi({ description: 'What happened, in words.' }),
    details: z.record(z.string(), z.unknown()).openapi({ description: 'The structured facts of the entry.' }),
    ip: z.string().nullable().openapi({ description: 'The address the request came from; null for the service.' }),
  })
  .openapi('ActivityEntry')

export const ActivityPageSchema = z
  .object({
    data: z.array(ActivityEntrySchema),
    nextCursor: z
      .string()
      .nullable()
      .openapi({ description: 'Pass it as `cursor` for the next page; null on the last page.' }),
  })
  .openapi('ActivityPage')
