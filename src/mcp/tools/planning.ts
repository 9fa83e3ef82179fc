import { z } from '@hono/zod-openapi'
import { QueueScheduleSchema, ReplaceQueueScheduleSchema } from '../../schemas/queue-slots'
import { getAnalytics } from '../../services/analytics/read'
import { getBestTimes } from '../../services/analytics/best-times'
import { getQueueSchedule, MAX_QUEUE_SLOTS, replaceQueueSchedule } from '../../services/queue-slots'
import {
  AnalyticsAnswerSchema,
  AnalyticsInputSchema,
  analyticsAnswer,
  SUMMARY_MAX_POSTS,
  TOP_POSTS,
} from '../answers/analytics'
import { BestTimesAnswerSchema, BestTimesInputSchema, bestTimesAnswer } from '../answers/best-times'
import { defineTool, type McpTool } from '../tool'
import { scopeOf } from '../../services/access/visibility'

const NO_INPUT = z.object({})
const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const

export const getQueueSlotsTool = defineTool({
  name: 'get_queue_slots',
  permission: 'read',
  title: 'Weekly queue slots',
  description: [
    'The weekly slots `action: "queue"` fills: weekday (0 = Sunday) and local `HH:MM` in the workspace `timezone`,',
    'and `nextFreeSlot`, the time a post queued now gets (null: none free within 52 weeks). One post per slot',
    'occurrence. Without slots, queueing answers `queue_not_configured`: see set_queue_slots.',
  ].join(' '),
  input: NO_INPUT,
  output: QueueScheduleSchema,
  annotations: READ,
  run: ({ deps, workspaceId }) => getQueueSchedule(deps.db, workspaceId, deps.clock.now()),
})

export const setQueueSlotsTool = defineTool({
  name: 'set_queue_slots',
  permission: 'publish',
  title: 'Replace the weekly queue slots',
  description: [
    `Replaces every slot at once (at most ${MAX_QUEUE_SLOTS}; [] clears them) and, with \`timezone\` (IANA), the`,
    'workspace time zone. Posts already queued keep their times. Read get_queue_slots first and send the full',
    'list you want; best_times can suggest hours.',
  ].join(' '),
  input: ReplaceQueueScheduleSchema,
  output: QueueScheduleSchema,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  run: ({ deps, workspaceId }, input) => replaceQueueSchedule(deps.db, workspaceId, input, deps.clock.now()),
})

export const getAnalyticsTool = defineTool({
  name: 'get_analytics',
  permission: 'read',
  title: 'Followers and post engagement',
  description: [
    'Per account: the latest follower count, `followersChange` over the last 30 days and the totals of the posts',
    `published in them (\`posts\`: count, engagement, views), and the ${TOP_POSTS} \`topPosts\` by engagement (likes + comments`,
    '+ shares + saves). `detail` adds the daily `series` and/or `recentPosts`. Collected in the background, not',
    'live; `null` is unknown (not reported, see `reports`, or not collected yet), never zero.',
  ].join(' '),
  input: AnalyticsInputSchema,
  output: AnalyticsAnswerSchema,
  annotations: READ,
  listOutput: true,
  run: async (ctx, { detail, groupId, labelId }) => {
    const scope = await scopeOf(ctx.deps.db, ctx, { groupId, labelId })
    const query = { ...scope, maxPosts: SUMMARY_MAX_POSTS }
    return analyticsAnswer(await getAnalytics(ctx.deps.db, ctx.workspaceId, ctx.deps.clock.now(), query), detail)
  },
})

export const bestTimesTool = defineTool({
  name: 'best_times',
  permission: 'read',
  title: 'Best times to post',
  description: [
    "When this workspace's posts do best (its last 180 days): the top weekday/hour `slots` (`minutes` after local",
    'midnight, workspace `timezone`), overall and `byPlatform`, scored against the typical post of the account (1 =',
    'typical) with their `samples`. `insufficient: true`: not enough data yet (unknown, not "no good time");',
    '`missing` says what is needed. Use it to choose `scheduledAt` or queue slots.',
  ].join(' '),
  input: BestTimesInputSchema,
  output: BestTimesAnswerSchema,
  annotations: READ,
  listOutput: true,
  run: async ({ deps, workspaceId, access }, { detail }) =>
    bestTimesAnswer(await getBestTimes(deps.db, workspaceId, deps.clock.now(), access.groupIds), detail === true),
})

export const PLANNING_TOOLS: McpTool[] = [getQueueSlotsTool, setQueueSlotsTool, getAnalyticsTool, bestTimesTool]
