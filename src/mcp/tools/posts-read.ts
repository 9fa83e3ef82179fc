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

const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const

export const listPostsTool = defineTool({
  name: 'list_posts',
  title: 'List posts',
  description: [
    'Posts of the workspace, newest first by default, with every target (one per account): its status, permalink',
    'and error. Filter by `status` (DRAFT, SCHEDULED, PUBLISHING, PUBLISHED, FAILED), `platform`, `type`, or `q`',
    `(text in the caption). One page at a time: \`page\` from 1, \`limit\` default ${DEFAULT_PAGE_SIZE}, at most 100;`,
    'read `hasMore` and ask for the next page. Use it to find a post id, or FAILED posts to retry.',
  ].join(' '),
  input: ListPostsQuery,
  output: PostPageSchema,
  annotations: READ,
  run: ({ deps, workspaceId }, { page, limit, ...filter }) =>
    listPostPage(deps.db, workspaceId, filter, page ?? 1, limit ?? DEFAULT_PAGE_SIZE),
})

export const getPostTool = defineTool({
  name: 'get_post',
  title: 'One post and its targets',
  description: [
    'One post by id with each target: status (PENDING, PUBLISHING, PUBLISHED, FAILED), `permalink` once published,',
    'and `error` when it failed (`retryable` says whether retry_post can help; `auth_expired` means the user must',
    'reconnect the account). Publishing is asynchronous: after publish_post or a scheduled time, call this to see',
    'the outcome. An id outside the workspace answers `not_found`.',
  ].join(' '),
  input: PostIdParam,
  output: PostSchema,
  annotations: READ,
  run: ({ deps, workspaceId }, { id }) => getPost(deps.db, workspaceId, id),
})

export const previewPostTool = defineTool({
  name: 'preview_post',
  title: 'Dry run of create_post',
  description: [
    'Takes exactly the arguments of create_post and runs the same checks without writing anything (no post, and the',
    'monthly plan count does not move). For each target: the caption that network receives, its length as that',
    'network counts it, the budget (`captionLimit`), the format it publishes as, and its errors and warnings.',
    '`valid: false` with `errors` lists everything create_post would refuse (over budget, missing media, media the',
    'format does not take, a time in the past...), each with its code and field. Call it before create_post and fix',
    'every error first (shorten the caption, add a per-platform `captionOverrides` entry, change media). Unknown or',
    'unused fields come back as warnings. The answer is a snapshot: the plan cap and the queue can change meanwhile.',
  ].join(' '),
  input: CreatePostSchema,
  output: PostValidationSchema,
  annotations: READ,
  run: (ctx, input, raw) =>
    validateNewPost(ctx.deps, ctx.workspaceId, input, unknownFieldWarnings(CreatePostSchema, raw)),
})

export const POST_READ_TOOLS: McpTool[] = [listPostsTool, getPostTool, previewPostTool]
