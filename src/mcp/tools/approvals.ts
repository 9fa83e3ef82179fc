import {
  ApprovePostSchema,
  RequestPostChangesSchema,
  SubmitPostSchema,
  UpdateWorkspaceSchema,
  WorkspaceSettingsSchema,
} from '../../schemas/approvals'
import { PostIdParam, PostSchema } from '../../schemas/posts'
import { approvePost, requestPostChanges, submitPost } from '../../services/posts/approval'
import { updateWorkspaceSettings } from '../../services/workspace/settings'
import { toolCaller } from '../caller'
import { defineTool, type McpTool } from '../tool'

const WRITE = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false } as const

export const submitPostTool = defineTool({
  name: 'submit_post',
  title: 'Submit a post for review',
  description: [
    'A DRAFT or CHANGES_REQUESTED post becomes IN_REVIEW; `action` is what approval then does, checked now as',
    'scheduling would be. Where approvalRequired, posts go out only once approved.',
  ].join(' '),
  input: PostIdParam.extend(SubmitPostSchema.shape),
  output: PostSchema,
  annotations: WRITE,
  permission: 'write',
  run: (ctx, { id, ...input }) => submitPost(ctx.deps, toolCaller(ctx), id, input),
})

export const approvePostTool = defineTool({
  name: 'approve_post',
  title: 'Approve a post in review',
  description: [
    'An IN_REVIEW post becomes APPROVED, or SCHEDULED/PUBLISHING when submitted with an action. Pass the `version`',
    'you read: a post changed since is `post_changed`.',
  ].join(' '),
  input: PostIdParam.extend(ApprovePostSchema.shape),
  output: PostSchema,
  annotations: { ...WRITE, openWorldHint: true },
  permission: 'review',
  run: (ctx, { id, ...input }) => approvePost(ctx.deps, toolCaller(ctx), id, input),
})

export const requestPostChangesTool = defineTool({
  name: 'request_post_changes',
  title: 'Request changes to a post in review',
  description: [
    'An IN_REVIEW post becomes CHANGES_REQUESTED; `comment` tells its author what to change, who then edits it',
    'and calls submit_post again. A stale `version`: `post_changed`.',
  ].join(' '),
  input: PostIdParam.extend(RequestPostChangesSchema.shape),
  output: PostSchema,
  annotations: WRITE,
  permission: 'review',
  run: (ctx, { id, ...input }) => requestPostChanges(ctx.deps, toolCaller(ctx), id, input),
})

export const updateWorkspaceTool = defineTool({
  name: 'update_workspace',
  title: 'Change workspace settings',
  description: [
    'Changes the settings given: `name`, `timezone` (IANA, e.g. Europe/Berlin), `approvalRequired` (every post',
    'then needs approve_post before it is scheduled or published). Owners and admins only.',
  ].join(' '),
  input: UpdateWorkspaceSchema,
  output: WorkspaceSettingsSchema,
  annotations: { ...WRITE, idempotentHint: true },
  permission: 'manage',
  run: (ctx, input) => updateWorkspaceSettings(ctx.deps, toolCaller(ctx), input),
})

export const APPROVAL_TOOLS: McpTool[] = [submitPostTool, approvePostTool, requestPostChangesTool, updateWorkspaceTool]
