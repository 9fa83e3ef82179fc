import { ActivityPageSchema, ActivityQuerySchema } from '../../schemas/activity'
import { ACTIVITY_PAGE_DEFAULT, listActivity } from '../../services/activity/list'
import { defineTool, type McpTool } from '../tool'

const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const

export const listActivityTool = defineTool({
  name: 'list_activity',
  title: 'Activity log',
  description:
    'Who did what and when in the workspace, newest first (managers only). Filter by actorKind, action (`post.` for a prefix), subjectId, from/to; page with cursor.',
  input: ActivityQuerySchema,
  output: ActivityPageSchema,
  annotations: READ,
  permission: 'manage',
  run: ({ deps, workspaceId }, { limit, ...query }) =>
    listActivity(deps.db, workspaceId, { ...query, limit: limit ?? ACTIVITY_PAGE_DEFAULT }),
})

export const ACTIVITY_TOOLS: McpTool[] = [listActivityTool]
