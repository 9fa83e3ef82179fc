import { z } from '@hono/zod-openapi'
import { toolCaller } from '../caller'
import { unknownFieldWarnings } from '../../domain/post-validation'
import {
  CreatePostSchema,
  PostIdParam,
  PostSchema,
  SchedulePostSchema,
  UpdatePostSchema,
  WrittenPostSchema,
} from '../../schemas/posts'
import { DeletedPostSchema, PostNetworkDeletionSchema } from '../../schemas/post-deletion'
import { deletePostFromNetworks } from '../../services/posts/delete-from-networks'
import { publishPostNow, retryFailedTargets } from '../../services/publishing/actions'
import { createPost } from '../../services/posts/create'
import { deletePost } from '../../services/posts/delete'
import { reschedulePost, updatePost } from '../../services/posts/update'
import { assertAccountsVisible, assertPostWritable } from '../../services/access/visibility'
import { defineTool, type McpTool } from '../tool'

const postId = PostIdParam.shape.id

export const createPostTool = defineTool({
  name: 'create_post',
  permission: 'write',
  title: 'Create a post',
  description: [
    'Writes one post to one or more accounts (`accountIds` from list_accounts; one target each) and by `action`:',
    '`draft` (saved), `schedule` (a future `scheduledAt`), `queue` (the next free weekly slot, see get_queue_slots)',
    'or `now` (publishes asynchronously: read get_post). `type` IMAGE, CAROUSEL, REEL or STORY (text only: IMAGE',
    'with `mediaIds: []`); media ids from upload_media_from_url or register_media. Every rule of every chosen platform',
    'is checked: call preview_post first. A refusal lists each problem (`caption_too_long`, `plan_limit_reached`...).',
    'Not idempotent: calling twice makes two posts. `warnings` name fields ignored or unused by the chosen networks.',
  ].join(' '),
  input: CreatePostSchema,
  output: WrittenPostSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  run: async (ctx, input, raw) => {
    await assertAccountsVisible(ctx.deps.db, ctx, input.accountIds)
    return createPost(ctx.deps, toolCaller(ctx), input, unknownFieldWarnings(CreatePostSchema, raw))
  },
})

const UpdateInput = z.object({
  id: postId,
  changes: UpdatePostSchema.openapi({
    description:
      'The fields to change, as in create_post; all optional, `null` clears one. `action` is applied after the edit.',
  }),
})

export const updatePostTool = defineTool({
  name: 'update_post',
  permission: 'write',
  title: 'Edit a post',
  description: [
    'Edits a post not yet going out (DRAFT, SCHEDULED, or FAILED with nothing published). Without `changes.action`',
    'it goes back to DRAFT; `action: "schedule"` keeps it scheduled (with or without a new `scheduledAt`). The checks',
    'of create_post run on the result. A post publishing or published answers `post_not_editable`.',
  ].join(' '),
  input: UpdateInput,
  listedInput: z.object({
    id: postId,
    changes: z.looseObject({}).meta({
      description:
        "Any of create_post's arguments (see its input schema), all optional; `null` clears a field; `accountIds` and `mediaIds` replace the lists; `action` is applied after the edit.",
    }),
  }),
  output: WrittenPostSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  run: async (ctx, { id, changes }, raw) => {
    await assertPostWritable(ctx.deps.db, ctx, id)
    await assertAccountsVisible(ctx.deps.db, ctx, changes.accountIds ?? [])
    return updatePost(ctx.deps, toolCaller(ctx), id, changes, unknownFieldWarnings(UpdatePostSchema, raw.changes))
  },
})

export const schedulePostTool = defineTool({
  name: 'schedule_post',
  permission: 'publish',
  title: 'Schedule or reschedule a post',
  description: [
    'Sets when a post goes out: SCHEDULED at `scheduledAt` (future, with an offset or Z); what was planned for the',
    'old time is cancelled. The publishing checks apply (media, boards...); best_times or get_queue_slots help pick',
    'a time. Publishing or published: `post_not_editable`; a past time: `schedule_time_in_past`.',
  ].join(' '),
  input: PostIdParam.extend(SchedulePostSchema.shape),
  output: WrittenPostSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  run: async (ctx, { id, scheduledAt }, { id: _id, ...body }) => {
    await assertPostWritable(ctx.deps.db, ctx, id)
    return reschedulePost(ctx.deps, toolCaller(ctx), id, scheduledAt, unknownFieldWarnings(SchedulePostSchema, body))
  },
})

export const publishPostTool = defineTool({
  name: 'publish_post',
  permission: 'publish',
  title: 'Publish a post now',
  description: [
    'Publishes a post now, whatever its schedule: it becomes PUBLISHING and each target goes out asynchronously',
    '(get_post for the outcome). Published targets are left alone; a PUBLISHED post answers `post_not_editable`.',
    'This posts publicly: confirm with the user first.',
  ].join(' '),
  input: PostIdParam,
  output: PostSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  run: async (ctx, { id }) => {
    await assertPostWritable(ctx.deps.db, ctx, id)
    return publishPostNow(ctx.deps, toolCaller(ctx), id)
  },
})

export const retryPostTool = defineTool({
  name: 'retry_post',
  permission: 'publish',
  title: 'Retry the failed targets',
  description: [
    'Publishes again only the FAILED targets of a post. Check `error.retryable` in get_post first: `auth_expired`',
    'needs the account reconnected, `unconfirmed` a look at the network (or it may post twice). A thread resumes',
    'after its last part. No failed target: `nothing_to_retry`.',
  ].join(' '),
  input: PostIdParam,
  output: PostSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  run: async (ctx, { id }) => {
    await assertPostWritable(ctx.deps.db, ctx, id)
    return retryFailedTargets(ctx.deps, toolCaller(ctx), id)
  },
})

export const deletePostTool = defineTool({
  name: 'delete_post',
  permission: 'write',
  title: 'Delete a post',
  description: [
    "Deletes the service's copy of a post and cancels what is still to be published. What a network already",
    'published stays there (delete_post_from_networks takes it down). Cannot be undone.',
  ].join(' '),
  input: PostIdParam,
  output: DeletedPostSchema,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  run: async (ctx, { id }) => {
    await assertPostWritable(ctx.deps.db, ctx, id)
    return deletePost(ctx.deps, toolCaller(ctx), id)
  },
})

export const deletePostFromNetworksTool = defineTool({
  name: 'delete_post_from_networks',
  permission: 'write',
  title: 'Delete a post from the networks too',
  description: [
    "Deletes what each published target put on its network (thread parts too), then the service's copy, and answers",
    'per target: `deleted`, `not_supported` (no delete API: it stays), `not_published`, `failed`, `unconfirmed` or',
    '`in_progress` (untouched: check the network first). While a target needs action the post is kept',
    '(`deleted: false`); calling again retries those. See get_post first for what was published.',
  ].join(' '),
  input: PostIdParam,
  output: PostNetworkDeletionSchema,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  run: async (ctx, { id }) => {
    await assertPostWritable(ctx.deps.db, ctx, id)
    return deletePostFromNetworks(ctx.deps, toolCaller(ctx), id)
  },
})

export const POST_WRITE_TOOLS: McpTool[] = [
  createPostTool,
  updatePostTool,
  schedulePostTool,
  publishPostTool,
  retryPostTool,
  deletePostTool,
  deletePostFromNetworksTool,
]
