import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import { baseUrlOf } from '../../http/base-url'
import { callerOf } from '../../http/caller'
import type { AppEnv } from '../../http/context'
import { errorResponses, jsonBody, jsonResponse, SECURITY } from '../../http/openapi'
import type { RouteMeta } from '../../http/route-meta'
import { CreatedReviewLinkSchema, CreateReviewLinkSchema } from '../../schemas/review-links'
import { createReviewLink } from '../../services/review-links/manage'

export const route = createRoute({
  method: 'post',
  path: '/review-links',
  operationId: 'createReviewLink',
  tags: ['Review links'],
  summary: 'Create a client review link',
  description:
    'A signed, expiring address (`url`) where whoever holds it, without an account, sees the upcoming posts of ' +
    'one account group with their network previews and may approve them or ask for changes after giving a name. ' +
    'The `url` is in this answer only: the service keeps only a hash of its token. Owners and admins.',
  security: SECURITY,
  request: { body: jsonBody(CreateReviewLinkSchema) },
  responses: {
    ...jsonResponse(CreatedReviewLinkSchema, 'The link, with its address (shown once).'),
    ...errorResponses(403),
  },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', permission: 'manage' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const created = await createReviewLink(c.var.deps, callerOf(c), { ...c.req.valid('json'), baseUrl: baseUrlOf(c) })
  return c.json(created, 200)
}
