import { z } from '@hono/zod-openapi'
import { unknownFieldWarnings } from '../../domain/post-validation'
import {
  CreatePostSchema,
  ListPostsQuery,
  PostIdParam,
  PostPageSchema,
  PostSchema,
  PostValidationSchema,
} from '../../schemas/posts'
import { DEFAULT_PAGE_SIZE, getPost, listPostPage } from '../../services/posts/read'
import { validateNewPost } from '../../services/posts/validate'
import { defineTool, type McpTool } from '../tool'
import { assertAccountsVisible, assertPostVisible, scopeOf } from '../../services/access/visibility'

const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const

export const listPostsTool = defineTool({
  name: 'list_posts',
  title: 'List posts',
  description: [
    'Posts of the workspace with every target (status, permalink, error). Filter by `status`, `platform`, `type`',
    `or \`q\` (caption text); \`page\` from 1, \`limit\` default ${DEFAULT_PAGE_SIZE} (at most 100), then read \`hasMore\`.`,
    'Use it to find a post id, or the FAILED posts to retry. `groupId` (list_groups), `labelId` (list_labels) narrow it.',
  ].join(' '),
  input: ListPostsQuery,
  output: PostPageSchema,
  annotations: READ,
  run: async (ctx, { page, limit, groupId, labelId, ...rest }) => {
    const filter = { ...rest, ...(await scopeOf(ctx.deps.db, ctx, { groupId, labelId })) }
    return listPostPage(ctx.deps.db, ctx.workspaceId, filter, page ?? 1, limit ?? DEFAULT_PAGE_SIZE)
  },
})

export const getPostTool = defineTool({
  name: 'get_post',
  title: 'One post and its targets',
  description: [
    'One post by id with each target: status (PENDING, PUBLISHING, PUBLISHED, FAILED), `permalink` once published,',
    '`error` when it failed (`retryable`: retry_post can help; `auth_expired`: the user must reconnect the account).',
    'Publishing is asynchronous: call it after publish_post or the scheduled time to see the outcome.',
  ].join(' '),
  input: PostIdParam,
  output: PostSchema,
  annotations: READ,
  run: async (ctx, { id }) => {
    await assertPostVisible(ctx.deps.db, ctx, id)
    return getPost(ctx.deps.db, ctx.workspaceId, id)
  },
})

export const previewPostTool = defineTool({
  name: 'preview_post',
  title: 'Dry run of create_post',
  description: [
    'Dry run of create_post with the same arguments: the same checks, nothing written (no post; the monthly count',
    'does not move). Per target: the caption that network receives, its length as the network counts it against',
    '`captionLimit`, the format it publishes as, errors and warnings. `valid: false`: `errors` lists everything',
    'create_post would refuse, each with code and field. Fix them all (shorten, add a `captionOverrides` entry,',
    'change media) and preview again before create_post.',
  ].join(' '),
  input: CreatePostSchema,
  listedInput: z.looseObject({}).meta({ description: "Exactly create_post's arguments (see its input schema)." }),
  output: PostValidationSchema,
  annotations: READ,
  run: async (ctx, input, raw) => {
    await assertAccountsVisible(ctx.deps.db, ctx, input.accountIds)
    return validateNewPost(ctx.deps, ctx.workspaceId, input, unknownFieldWarnings(CreatePostSchema, raw))
  },
})

export const POST_READ_TOOLS: McpTool[] = [listPostsTool, getPostTool, previewPostTool]
