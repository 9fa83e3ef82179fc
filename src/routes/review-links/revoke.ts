import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import { callerOf } from '../../http/caller'
import type { AppEnv } from '../../http/context'
import { errorResponses, jsonResponse, SECURITY } from '../../http/openapi'
import type { RouteMeta } from '../../http/route-meta'
import { ReviewLinkIdParam, ReviewLinkSchema } from '../../schemas/review-links'
import { revokeReviewLink } from '../../services/review-links/manage'

export const route = createRoute({
  method: 'delete',
  path: '/review-links/{id}',
  operationId: 'revokeReviewLink',
  tags: ['Review links'],
  summary: 'Revoke a client review link',
  description:
    'The page says the link was withdrawn from now on, and shows nothing else. Revoking a revoked link ' +
    'answers it unchanged. The link stays listed, revoked.',
  security: SECURITY,
  request: { params: ReviewLinkIdParam },
  responses: {
    ...jsonResponse(ReviewLinkSchema, 'The link, revoked.'),
    ...errorResponses(403),
  },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', permission: 'manage' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) =>
  c.json(await revokeReviewLink(c.var.deps, callerOf(c), c.req.valid('param').id), 200)
