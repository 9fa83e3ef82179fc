import { z } from '@hono/zod-openapi'
import { AnalyticsSchema } from '../../schemas/analytics'
import { BestTimesSchema } from '../../schemas/best-times'
import { QueueScheduleSchema, ReplaceQueueScheduleSchema } from '../../schemas/queue-slots'
import { getAnalytics } from '../../services/analytics/read'
import { getBestTimes } from '../../services/analytics/best-times'
import { getQueueSchedule, MAX_QUEUE_SLOTS, replaceQueueSchedule } from '../../services/queue-slots'
import { defineTool, type McpTool } from '../tool'

const NO_INPUT = z.object({})
const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const

export const getQueueSlotsTool = defineTool({
  name: 'get_queue_slots',
  title: 'Weekly queue slots',
  description: [
    'The weekly posting schedule that `action: "queue"` fills (create_post, update_post): slots as weekday (0 =',
    'Sunday) and local `HH:MM` in the workspace time zone, and `nextFreeSlot`, the exact time a post queued now',
    'would get (null when there are no slots or every slot of the next 52 weeks is taken). Each slot occurrence',
    'holds one post. Without slots, queueing answers `queue_not_configured`: set some with set_queue_slots.',
  ].join(' '),
  input: NO_INPUT,
  output: QueueScheduleSchema,
  annotations: READ,
  run: ({ deps, workspaceId }) => getQueueSchedule(deps.db, workspaceId, deps.clock.now()),
})

export const setQueueSlotsTool = defineTool({
  name: 'set_queue_slots',
  title: 'Replace the weekly queue slots',
  description: [
    `Replaces every slot at once (at most ${MAX_QUEUE_SLOTS}; an empty list clears the schedule), and with`,
    '`timezone` (an IANA name) the workspace time zone too. Posts already queued keep their times. The old',
    'schedule is gone afterwards: read get_queue_slots first and send the full list you want. best_times can',
    'suggest the hours.',
  ].join(' '),
  input: ReplaceQueueScheduleSchema,
  output: QueueScheduleSchema,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  run: ({ deps, workspaceId }, input) => replaceQueueSchedule(deps.db, workspaceId, input, deps.clock.now()),
})

export const getAnalyticsTool = defineTool({
  name: 'get_analytics',
  title: 'Followers and post engagement',
  description: [
    'Per account: the latest follower count and 30 daily values; per post published in the last 30 days (at most',
    '100): likes, comments, shares, views, saves and `engagement` (likes + comments + shares + saves). Collected in',
    'the background (hourly for a young post, then daily, then weekly), not live. `null` means unknown (the',
    'network does not report it, see `reports`, or it was not collected yet), never zero.',
  ].join(' '),
  input: NO_INPUT,
  output: AnalyticsSchema,
  annotations: READ,
  run: ({ deps, workspaceId }) => getAnalytics(deps.db, workspaceId, deps.clock.now()),
})

export const bestTimesTool = defineTool({
  name: 'best_times',
  title: 'Best times to post',
  description: [
    "When this workspace's posts do best, from its own history (180 days): the top weekday and hour slots in the",
    'workspace time zone, overall and per platform, each scored against the typical post of its account (1 =',
    'typical) with its number of `samples`. `insufficient: true` with a `reason` means there is not enough data',
    'yet (unknown, not "no good time"). Use it to choose `scheduledAt` or queue slots.',
  ].join(' '),
  input: NO_INPUT,
  output: BestTimesSchema,
  annotations: READ,
  run: ({ deps, workspaceId }) => getBestTimes(deps.db, workspaceId, deps.clock.now()),
})

export const PLANNING_TOOLS: McpTool[] = [getQueueSlotsTool, setQueueSlotsTool, getAnalyticsTool, bestTimesTool]
