import { createRoute, z, type RouteHandler } from '@hono/zod-openapi'
import { callerOf } from '../../http/caller'
import type { AppEnv } from '../../http/context'
import { errorResponses, jsonResponse, SECURITY } from '../../http/openapi'
import type { RouteMeta } from '../../http/route-meta'
import { ReviewLinkSchema } from '../../schemas/review-links'
import { listReviewLinks } from '../../services/review-links/manage'

export const route = createRoute({
  method: 'get',
  path: '/review-links',
  operationId: 'listReviewLinks',
  tags: ['Review links'],
  summary: "The workspace's client review links",
  description: 'Every link, newest first, with its state (active, expired, revoked). Addresses are never listed.',
  security: SECURITY,
  responses: {
    ...jsonResponse(z.array(ReviewLinkSchema), 'The links.'),
    ...errorResponses(403),
  },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', permission: 'manage' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) =>
  c.json(await listReviewLinks(c.var.deps, callerOf(c)), 200)
