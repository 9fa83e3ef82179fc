import { z } from '@hono/zod-openapi'
import {
  PLATFORM_IDS,
  POST_SOURCES,
  POST_STATUSES,
  POST_TYPES,
  TARGET_ERROR_CODES,
  TARGET_STATUSES,
} from '../domain/vocabulary'
import { IsoInstantSchema, POST_CONTENT_FIELDS, RecurrenceSchema } from '../domain/post-content'
import { ERROR_CODES } from '../domain/errors'
import { POST_ACTIONS, type CreatePostInput, type UpdatePostInput } from '../services/posts/types'

const isoDateTime = IsoInstantSchema.meta({
  description: 'ISO 8601 with a time zone offset or Z.',
  example: '2026-12-01T09:30:00Z',
})
const ids = (what: string) => z.array(z.string().min(1).max(64)).openapi({ description: what })

/** Content fields, shared by create and edit (all optional on edit; `null` clears a field on edit). */
const { caption, captionOverrides, ...laterContentFields } = POST_CONTENT_FIELDS
const contentFields = { caption, captionOverrides, scheduledAt: isoDateTime.nullable(), ...laterContentFields }

export const CreatePostSchema = z
  .object({
    type: z.enum(POST_TYPES),
    accountIds: ids('Destination accounts; each distinct account becomes one target.').min(1).max(100),
    mediaIds: ids('Media asset ids, in order; [] for a text-only post.').max(35),
    labelIds: ids('Labels of the post (`GET /v1/labels`); an unknown id is 422 `label_not_found`.').max(50).optional(),
    action: z.enum(POST_ACTIONS),
    ...Object.fromEntries(Object.entries(contentFields).map(([k, v]) => [k, v.optional()])),
  })
  .passthrough()
  .openapi('CreatePost', {
    example: {
      type: 'IMAGE',
      accountIds: ['acc_9TqX2v8LmN3pR5sW7yZa1b'],
      mediaIds: [],
      action: 'schedule',
      caption: 'Hello',
      scheduledAt: '2026-12-01T09:30:00Z',
    },
  }) as unknown as z.ZodType<CreatePostInput>

export const UpdatePostSchema = z
  .object({
    type: z.enum(POST_TYPES).optional(),
    accountIds: ids('Replaces the destinations.').min(1).max(100).optional(),
    mediaIds: ids('Replaces the media.').max(35).optional(),
    labelIds: ids('Replaces the labels; [] removes them all.').max(50).optional(),
    action: z
      .enum(POST_ACTIONS)
      .optional()
      .openapi({ description: 'Applied after the edit. Without it the post goes back to DRAFT.' }),
    ...Object.fromEntries(Object.entries(contentFields).map(([k, v]) => [k, v.optional()])),
  })
  .passthrough()
  .openapi('UpdatePost') as unknown as z.ZodType<UpdatePostInput>

export const TargetSchema = z
  .object({
    id: z.string(),
    accountId: z.string(),
    platform: z.enum(PLATFORM_IDS),
    status: z.enum(TARGET_STATUSES),
    permalink: z.string().nullable(),
    platformPostId: z.string().nullable(),
    error: z
      .object({
        code: z.enum(TARGET_ERROR_CODES).openapi({
          description:
            'The failure class: `transient` and `rate_limited` are retried by the engine itself; `rejected` and `auth_expired` (reconnect the account) fail at once; `unconfirmed`: a send went unanswered, check the network before retrying; `account_disconnected`: the account was disconnected before the target went out (reconnect it, then retry).',
        }),
        message: z.string().openapi({ description: 'What the network said, in words a person can act on.' }),
        retryable: z.boolean(),
      })
      .nullable(),
    publishedAt: z.string().nullable().openapi({ format: 'date-time' }),
    attempts: z.number().int().openapi({
      description:
        'Publish attempts made at the network. Not counted: status checks of a job the network is still processing, and a publish cut short (by a restart or a crash) that never reached the network: one whose call had not started, or that the network confirms it never received.',
    }),
  })
  .openapi('Target')

export const PostLabelSchema = z
  .object({ id: z.string(), name: z.string(), color: z.string() })
  .openapi('PostLabel')

/** The record shows every content field as stored; the series carries its place in it. */
const { recurrence: _recurrence, ...recordContentFields } = POST_CONTENT_FIELDS

export const PostSchema = z
  .object({
    id: z.string(),
    status: z.enum(POST_STATUSES),
    source: z.enum(POST_SOURCES).openapi({
      description:
        '`service`: made through this service; `external`: published on the network some other way and imported with its metrics (read-only here).',
    }),
    type: z.enum(POST_TYPES),
    ...recordContentFields,
    accountIds: z.array(z.string()),
    mediaIds: z.array(z.string()),
    scheduledAt: z.string().nullable().openapi({ format: 'date-time' }),
    publishedAt: z.string().nullable().openapi({ format: 'date-time' }),
    recurrence: RecurrenceSchema.extend({
      occurrence: z.number().int().openapi({ description: 'Which occurrence of the series this post is, from 1.' }),
      parentId: z
        .string()
        .nullable()
        .openapi({ description: 'The previous occurrence, whose publication created this one.' }),
    }).nullable(),
    queued: z.boolean().openapi({ description: 'The time came from a queue slot.' }),
    createdAt: z.string().openapi({ format: 'date-time' }),
    updatedAt: z.string().openapi({ format: 'date-time' }),
    targets: z.array(TargetSchema),
    labels: z
      .array(PostLabelSchema)
      .openapi({ description: 'Its labels (`labelIds` on create and edit), by name.' }),
  })
  .openapi('Post')

export const PostIdParam = z.object({
  id: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: 'id', in: 'path' }, example: 'post_3kqZ7m0pL2aYbN4tR8cVxd' }),
})

/** The body of `POST /v1/posts/{id}/schedule`. */
export const SchedulePostSchema = z
  .object({ scheduledAt: IsoInstantSchema.meta({ example: '2026-12-01T09:30:00Z' }) })
  .openapi('SchedulePost')

export const POST_SORTS = [
  'createdAt',
  '-createdAt',
  'scheduledAt',
  '-scheduledAt',
  'publishedAt',
  '-publishedAt',
] as const
export const ListPostsQuery = z.object({
  status: z.enum(POST_STATUSES).optional(),
  platform: z.enum(PLATFORM_IDS).optional().openapi({ description: 'Only posts with a target on this platform.' }),
  type: z.enum(POST_TYPES).optional(),
  q: z.string().min(1).max(200).optional().openapi({ description: 'Case-insensitive text search in the caption.' }),
  source: z.enum(POST_SOURCES).optional().openapi({
    description:
      '`service`: only posts written through this service; `external`: only posts published on the network outside it and imported (read-only).',
  }),
  groupId: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .openapi({ description: 'Only posts with an account in this group; an unknown group is 404.' }),
  labelId: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .openapi({ description: 'Only posts with this label; an unknown label is 404.' }),
  sort: z.enum(POST_SORTS).default('createdAt').openapi({
    description:
      'A field name orders newest (latest) first; a leading `-` reverses it (oldest first). Posts without that time come last. Default `createdAt`.',
  }),
  page: z.coerce
    .number()
    .int()
    .min(1)
    .optional()
    .openapi({ description: 'Starts at 1. With it the answer is an envelope.' }),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .optional()
    .openapi({ description: 'Page size, default 20, at most 100.' }),
})
export type ListPostsInput = z.infer<typeof ListPostsQuery>

export const PostPageSchema = z
  .object({
    data: z.array(PostSchema),
    page: z.number().int(),
    limit: z.number().int(),
    total: z.number().int(),
    hasMore: z.boolean(),
  })
  .openapi('PostPage')

export const PostWarningSchema = z
  .object({
    code: z.enum(['unknown_field', 'not_applicable', 'token_expires']).openapi({
      description:
        "`unknown_field`: a body field that is not part of the API (a typo such as `capton`); it was ignored. `not_applicable`: a field none of the post's networks uses (`threadParts` without a threading network, `firstComment` without the photo network, a caption override for a platform the post does not target...); it is kept but not published. `token_expires`: the target account's token expires before the post is due and cannot be renewed by this service (no refresh token, or a network without renewal); the message names the account and the expiry; reconnect the account (`POST /v1/accounts/{id}/reconnect`) before then.",
    }),
    message: z.string(),
    path: z.string().optional().openapi({ description: 'The body field, dotted (`recurrence.frequncy`).' }),
    accountId: z.string().optional(),
  })
  .openapi('PostWarning', {
    description: 'Something the write accepted but the caller likely did not mean. Warnings never block a write.',
  })

/** What create, edit and reschedule answer: the post, and what the write accepted but reports back. */
export const WrittenPostSchema = PostSchema.extend({
  warnings: z.array(PostWarningSchema).openapi({ description: 'Always present; `[]` when there is nothing to say.' }),
}).openapi('WrittenPost')

const PostIssueSchema = z
  .object({
    code: z.enum(ERROR_CODES),
    message: z.string(),
    path: z.string().openapi({ description: "The body field, dotted; '' when it concerns the whole post." }),
    platform: z.string().optional(),
    accountId: z.string().optional(),
    limit: z.number().optional(),
    actual: z.number().optional(),
  })
  .openapi('PostIssue', { description: 'One thing create would refuse: one `details` entry of its error answer.' })

export const PostValidationSchema = z
  .object({
    valid: z.boolean().openapi({ description: 'Create would accept this body now (no error here or in a target).' }),
    targets: z.array(
      z
        .object({
          accountId: z.string(),
          platform: z.enum(PLATFORM_IDS),
          caption: z.string().openapi({ description: 'The text this network receives: its override, else `caption`.' }),
          captionLength: z.number().int().openapi({
            description: "The caption's length as this network counts it (`counting` in GET /v1/platforms).",
          }),
          captionLimit: z
            .number()
            .int()
            .openapi({ description: 'The budget it counts against, for this media (images, video or none).' }),
          format: z
            .enum(POST_TYPES)
            .openapi({ description: "The format it publishes as: `type`, or the platform's `defaultFormat`." }),
          errors: z.array(PostIssueSchema),
          warnings: z.array(PostWarningSchema),
        })
        .openapi('TargetValidation'),
    ),
    errors: z.array(PostIssueSchema).openapi({
      description:
        'What concerns no single target: an account or media id not in this workspace (then `targets` is empty), the monthly plan cap, the time.',
    }),
    warnings: z.array(PostWarningSchema),
  })
  .openapi('PostValidation')
