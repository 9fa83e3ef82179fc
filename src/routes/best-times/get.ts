import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { errorResponses, jsonResponse, SECURITY } from '../../http/openapi'
import { getBestTimes } from '../../services/analytics/best-times'
import { BEST_TIMES_DESCRIPTION, BestTimesSchema } from '../../schemas/best-times'
import type { RouteMeta } from '../../http/route-meta'

export const route = createRoute({
  method: 'get',
  path: '/best-times',
  operationId: 'getBestTimes',
  tags: ['Analytics'],
  summary: 'Recommended posting times, overall and per platform',
  description: BEST_TIMES_DESCRIPTION,
  security: SECURITY,
  responses: { ...jsonResponse(BestTimesSchema, 'The best-times reports.'), ...errorResponses() },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', permission: 'read' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps, auth } = c.var
  return c.json(await getBestTimes(deps.db, auth.workspaceId, deps.clock.now(), auth.access.groupIds), 200)
}
