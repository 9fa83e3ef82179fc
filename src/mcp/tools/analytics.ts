import { z } from '@hono/zod-openapi'
import { PostAnalyticsSchema, RefreshAnalyticsSchema } from '../../schemas/analytics'
import { PostIdParam } from '../../schemas/posts'
import { getPostAnalytics } from '../../services/analytics/post-analytics'
import { requestAnalyticsRefresh } from '../../services/analytics/refresh'
import { defineTool, type McpTool } from '../tool'

export const getPostAnalyticsTool = defineTool({
  name: 'get_post_analytics',
  title: "One post's figures",
  description: [
    "Per target of a post (get_post's id, imported posts too): the latest likes, comments, shares, views, saves, clicks,",
    'impressions and reach, `engagement` (likes + comments + shares + saves), `engagementRate` (engagement / impressions,',
    'else / views), `collectedAt` and the `timeline` of snapshots. `null` is unknown (not reported, see `reported`, or',
    'not collected yet), never zero. refresh_analytics reads them now.',
  ].join(' '),
  input: PostIdParam,
  output: PostAnalyticsSchema,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  run: ({ deps, workspaceId }, { id }) => getPostAnalytics(deps.db, workspaceId, id, deps.clock.now()),
})

export const refreshAnalyticsTool = defineTool({
  name: 'refresh_analytics',
  title: 'Read figures again now',
  description: [
    'Asks for every connected account (or `accountId`) to be read now rather than on its schedule: followers, the',
    'figures of its posts of the last 90 days, and its posts and comments where the network lists them. Answers at',
    'once with what will be read (`accounts[].streams`) and what not (`skipped`, with why); get_analytics says',
    '`refreshing: true` until done, usually within a minute. Rate-limited: a few calls a minute.',
  ].join(' '),
  input: z.object({ accountId: z.string().min(1).max(64).optional() }),
  output: RefreshAnalyticsSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  rateLimit: 'analyticsRefresh',
  run: ({ deps, workspaceId }, { accountId }) =>
    requestAnalyticsRefresh(deps, { workspaceId, accountId, now: deps.clock.now() }),
})

export const ANALYTICS_TOOLS: McpTool[] = [getPostAnalyticsTool, refreshAnalyticsTool]
