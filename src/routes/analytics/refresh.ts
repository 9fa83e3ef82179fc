import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { errorResponses, SECURITY } from '../../http/openapi'
import type { RouteMeta } from '../../http/route-meta'
import { RefreshAnalyticsBody, RefreshAnalyticsSchema } from '../../schemas/analytics'
import { REFRESH_MAX_AGE_DAYS, REFRESH_PER_MINUTE, requestAnalyticsRefresh } from '../../services/analytics/refresh'

export const route = createRoute({
  method: 'post',
  path: '/analytics/refresh',
  operationId: 'refreshAnalytics',
  tags: ['Analytics'],
  summary: 'Read the figures (and posts and comments) of the accounts again now',
  description: [
    `Asks for every connected account of the workspace, or the one in \`accountId\`, to be read now rather than on its schedule: followers and the figures of every target published in the last ${REFRESH_MAX_AGE_DAYS} days (the next collection pass, within a minute), and where the network lists them its posts (imported as external posts) and comments (the inbox).`,
    '',
    "Answers 202 at once with what will be read; nothing is called on the network during the request. `GET /v1/analytics` says `refreshing: true` until it is done. An account that is not connected, or whose network reports nothing, is in `skipped` with why. Asking again while a refresh waits changes nothing. Another workspace's account is 404.",
    '',
    `Rate limit: its own bucket, ${REFRESH_PER_MINUTE} requests a minute.`,
  ].join('\n'),
  security: SECURITY,
  request: {
    body: { required: false, content: { 'application/json': { schema: RefreshAnalyticsBody } } },
  },
  responses: {
    202: {
      description: 'The refresh was asked for: the accounts and streams that will be read.',
      content: { 'application/json': { schema: RefreshAnalyticsSchema } },
    },
    ...errorResponses(),
  },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'analyticsRefresh', permission: 'write' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps, auth } = c.var
  const body = c.req.valid('json') ?? {}
  const answer = await requestAnalyticsRefresh(deps, {
    workspaceId: auth.workspaceId,
    accountId: body.accountId,
    now: deps.clock.now(),
  })
  return c.json(answer, 202)
}
