import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { errorResponses, jsonResponse, SECURITY } from '../../http/openapi'
import type { RouteMeta } from '../../http/route-meta'
import { ENGAGEMENT_RATE_RULE, PostAnalyticsSchema } from '../../schemas/analytics'
import { PostIdParam } from '../../schemas/posts'
import { getPostAnalytics } from '../../services/analytics/post-analytics'

export const route = createRoute({
  method: 'get',
  path: '/posts/{id}/analytics',
  operationId: 'getPostAnalytics',
  tags: ['Analytics'],
  summary: "One post's figures per target: the latest, engagement rate and the timeline of snapshots",
  description: [
    "Per target: the latest figures the collection pass read (likes, comments, shares, views, saves, clicks, impressions, reach), when (`collectedAt`) and when next (`nextCollectionAt`), and every snapshot since publication (`timeline`, oldest first). Figures are collected hourly during a post's first 24 hours, daily until 7 days, weekly until 30 days; `POST /v1/analytics/refresh` reads them now.",
    '',
    '**Null means unknown, never zero**: a figure is null when the network does not report it (`reported` lists those it does) or before the first collection.',
    '',
    `\`engagement\` = likes + comments + shares + saves over the figures reported. ${ENGAGEMENT_RATE_RULE}`,
    '',
    "Works the same for an imported post (`source: external`). Another workspace's post is 404.",
  ].join('\n'),
  security: SECURITY,
  request: { params: PostIdParam },
  responses: { ...jsonResponse(PostAnalyticsSchema, "The post's figures per target."), ...errorResponses() },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', scope: 'post' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps, auth } = c.var
  const answer = await getPostAnalytics(deps.db, auth.workspaceId, c.req.valid('param').id, deps.clock.now())
  return c.json(answer, 200)
}
