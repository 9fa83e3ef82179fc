import { z } from '@hono/zod-openapi'
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
import { createPost, deletePost, reschedulePost, updatePost } from '../../services/posts/write'
import { defineTool, type McpTool } from '../tool'

const postId = PostIdParam.shape.id

export const createPostTool = defineTool({
  name: 'create_post',
  title: 'Create a post',
  description: [
    'Writes one post to one or more accounts (`accountIds` from list_accounts; one target per account) and, by',
    '`action`: `draft` (saved only), `schedule` (needs a future `scheduledAt` with an offset or Z), `queue` (the next',
    'free weekly slot, see get_queue_slots) or `now` (publishes at once, asynchronously: read get_post later).',
    '`type` is IMAGE, CAROUSEL, REEL or STORY (a text-only post is IMAGE with `mediaIds: []`); `mediaIds` are asset',
    'ids from upload_media_from_url or register_media. Every rule of every chosen platform is checked at once: call',
    'preview_post first; a refusal is an error result listing each problem (`caption_too_long`, `media_not_supported`,',
    '`account_not_found`, `plan_limit_reached` when the monthly cap is reached...). Not idempotent: calling it twice',
    'makes two posts. `warnings` name fields that were ignored or that no chosen network uses.',
  ].join(' '),
  input: CreatePostSchema,
  output: WrittenPostSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  run: (ctx, input, raw) => createPost(ctx.deps, ctx.workspaceId, input, unknownFieldWarnings(CreatePostSchema, raw)),
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
  title: 'Edit a post',
  description: [
    'Changes a post that has not started going out (DRAFT, SCHEDULED or FAILED before anything was published):',
    '`changes` holds only the fields to change (`accountIds` and `mediaIds` replace the lists). Without',
    '`changes.action` the post goes back to DRAFT; pass `action: "schedule"` (with or without a new `scheduledAt`)',
    'to keep it scheduled. The same checks as create_post run on the edited post. A post publishing or published',
    '(even in part) answers `post_not_editable`.',
  ].join(' '),
  input: UpdateInput,
  output: WrittenPostSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  run: (ctx, { id, changes }, raw) =>
    updatePost(ctx.deps, ctx.workspaceId, id, changes, unknownFieldWarnings(UpdatePostSchema, raw.changes)),
})

export const schedulePostTool = defineTool({
  name: 'schedule_post',
  title: 'Schedule or reschedule a post',
  description: [
    'Sets the time a post goes out: it becomes SCHEDULED at `scheduledAt` (future, ISO 8601 with an offset or Z),',
    'and anything planned for its old time is cancelled. It must pass the publishing checks (media, boards...).',
    'To pick a time, see best_times (when this workspace does best) or get_queue_slots. A post publishing or',
    'published answers `post_not_editable`; a past time `schedule_time_in_past`.',
  ].join(' '),
  input: PostIdParam.extend(SchedulePostSchema.shape),
  output: WrittenPostSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  run: (ctx, { id, scheduledAt }, { id: _id, ...body }) =>
    reschedulePost(ctx.deps, ctx.workspaceId, id, scheduledAt, unknownFieldWarnings(SchedulePostSchema, body)),
})

export const publishPostTool = defineTool({
  name: 'publish_post',
  title: 'Publish a post now',
  description: [
    'Publishes a post now, whatever time it was scheduled for: it becomes PUBLISHING and each target goes out',
    'asynchronously (call get_post for the outcome and permalinks). Targets already published are left alone, and',
    'a post already publishing is returned unchanged; a PUBLISHED post answers `post_not_editable`. This posts',
    'publicly on the networks: confirm with the user first.',
  ].join(' '),
  input: PostIdParam,
  output: PostSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  run: (ctx, { id }) => publishPostNow(ctx.deps, ctx.workspaceId, id),
})

export const retryPostTool = defineTool({
  name: 'retry_post',
  title: 'Retry the failed targets',
  description: [
    'Publishes again only the FAILED targets of a post (check `error.retryable` in get_post first; `auth_expired`',
    'needs the account reconnected, `unconfirmed` needs a look at the network first or it may post twice).',
    'Published targets are never touched; a thread resumes after its last part. No failed target answers',
    '`nothing_to_retry`.',
  ].join(' '),
  input: PostIdParam,
  output: PostSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  run: (ctx, { id }) => retryFailedTargets(ctx.deps, ctx.workspaceId, id),
})

export const deletePostTool = defineTool({
  name: 'delete_post',
  title: 'Delete a post',
  description: [
    "Deletes the service's copy of a post and cancels whatever of it is still to be published. What was already",
    'published on a network stays there (nothing is taken down; `delete_post_from_networks` does that). Cannot be',
    'undone. An unknown id answers `not_found`.',
  ].join(' '),
  input: PostIdParam,
  output: DeletedPostSchema,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  run: (ctx, { id }) => deletePost(ctx.deps, ctx.workspaceId, id),
})

export const deletePostFromNetworksTool = defineTool({
  name: 'delete_post_from_networks',
  title: 'Delete a post from the networks too',
  description: [
    'Deletes what each published target of a post put on its network (thread parts and album items too), then',
    "the service's copy, and answers per target what happened (`deleted`, `not_supported`: the network has no",
    "delete endpoint and the post stays there, `not_published`, `failed` with the network's words, `unconfirmed`",
    'or `in_progress`: not touched, check the network first). The post record is kept while any target still needs',
    'action (`deleted: false`); calling again retries only those. Use get_post first to see what was published.',
  ].join(' '),
  input: PostIdParam,
  output: PostNetworkDeletionSchema,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  run: (ctx, { id }) => deletePostFromNetworks(ctx.deps, ctx.workspaceId, id),
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
