import { z } from '@hono/zod-openapi'
import { PostAnalyticsSchema, RefreshAnalyticsSchema } from '../../schemas/analytics'
import { PostIdParam } from '../../schemas/posts'
import { getPostAnalytics } from '../../services/analytics/post-analytics'
import { requestAnalyticsRefresh } from '../../services/analytics/refresh'
import { defineTool, type McpTool } from '../tool'
import { assertPostVisible } from '../../services/access/visibility'

export const getPostAnalyticsTool = defineTool({
  name: 'get_post_analytics',
  title: "One post's figures",
  description:
    'Per target of a post (id from list_posts): latest figures, `engagementRate` (engagement / impressions, else views), `timeline` of readings; null: not reported or not read yet.',
  input: PostIdParam,
  output: PostAnalyticsSchema,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: async (ctx, { id }) => {
    await assertPostVisible(ctx.deps.db, ctx, id)
    return getPostAnalytics(ctx.deps.db, ctx.workspaceId, id, ctx.deps.clock.now())
  },
})

export const refreshAnalyticsTool = defineTool({
  name: 'refresh_analytics',
  title: 'Read figures again now',
  description:
    'Reads every account (or `accountId`) again now: figures of 90 days, posts, comments. Answers what will be read; get_analytics says `refreshing` until done.',
  input: z.object({ accountId: z.string().min(1).max(64).optional() }),
  output: RefreshAnalyticsSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  rateLimit: 'analyticsRefresh',
  run: ({ deps, workspaceId }, { accountId }) =>
    requestAnalyticsRefresh(deps, { workspaceId, accountId, now: deps.clock.now() }),
})

export const ANALYTICS_TOOLS: McpTool[] = [getPostAnalyticsTool, refreshAnalyticsTool]
