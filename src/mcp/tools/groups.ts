import { z } from '@hono/zod-openapi'
import { GroupSchema } from '../../schemas/groups'
import { LabelSchema } from '../../schemas/labels'
import { listGroups } from '../../services/groups/groups'
import { listLabels } from '../../services/labels/labels'
import { defineTool, type McpTool } from '../tool'

const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const

export const listGroupsTool = defineTool({
  name: 'list_groups',
  title: 'Account groups',
  description:
    "Account groups (clients, brands) with their accountIds and whether they require approval. Pass a group's id as `groupId` to list_posts, list_comments and get_analytics.",
  input: z.object({}),
  output: z.object({ groups: z.array(GroupSchema) }),
  annotations: READ,
  permission: 'read',
  run: async (ctx) => ({ groups: await listGroups(ctx.deps.db, ctx) }),
})

export const listLabelsTool = defineTool({
  name: 'list_labels',
  title: 'Post labels',
  description:
    'Labels (campaigns) with their names and colors. Tag posts with `labelIds` on create_post or update_post, and filter with `labelId` on list_posts and get_analytics.',
  input: z.object({}),
  output: z.object({ labels: z.array(LabelSchema) }),
  annotations: READ,
  permission: 'read',
  run: async (ctx) => ({ labels: await listLabels(ctx.deps.db, ctx.workspaceId) }),
})

export const GROUP_TOOLS: McpTool[] = [listGroupsTool, listLabelsTool]
