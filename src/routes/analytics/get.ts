import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { errorResponses, jsonResponse, SECURITY } from '../../http/openapi'
import { getAnalytics } from '../../services/analytics/read'
import { AnalyticsSchema } from '../../schemas/analytics'
import type { RouteMeta } from '../../http/route-meta'

export const route = createRoute({
  method: 'get',
  path: '/analytics',
  operationId: 'getAnalytics',
  tags: ['Analytics'],
  summary: 'Followers per account (latest and 30 daily values) and engagement of recent posts',
  description: [
    "Figures are collected by a background pass, not read live: each account's follower count once a day (the workspace's calendar day), and each published target's metrics hourly during its first 24 hours, daily until it is 7 days old, weekly until 30 days, then no more (its last figures stand).",
    '',
    "**Null means unknown, never zero.** A figure is null when the network does not report it to this service (the professional network, the text-thread network and the chat community report nothing, nor does the short-video network until a scope it needs is approved; the messaging app reports a member count but no per-message figures; `reports` says what each account's network gives), or when it has not been collected yet (`collectedAt` null).",
    '',
    '`engagement` = likes + comments + shares + saves, summed over the figures the network reported; views are exposure, not interactions, and are not part of it.',
  ].join('\n'),
  security: SECURITY,
  responses: { ...jsonResponse(AnalyticsSchema, "The workspace's analytics."), ...errorResponses() },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps, auth } = c.var
  return c.json(await getAnalytics(deps.db, auth.workspaceId, deps.clock.now()), 200)
}
