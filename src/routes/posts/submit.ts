import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { callerOf } from '../../http/caller'
import { errorResponses, jsonResponse, SECURITY } from '../../http/openapi'
import type { RouteMeta } from '../../http/route-meta'
import { SubmitPostSchema } from '../../schemas/approvals'
import { PostIdParam, PostSchema } from '../../schemas/posts'
import { submitPost } from '../../services/posts/approval'

export const route = createRoute({
  method: 'post',
  path: '/posts/{id}/submit',
  operationId: 'submitPost',
  tags: ['Posts'],
  summary: 'Submit a post for review',
  description:
    'A DRAFT or CHANGES_REQUESTED post becomes IN_REVIEW (any workspace may ask for a review). With `action` (`schedule` with `scheduledAt`, `queue` or `now`), approval then does that at once; the post is checked now as scheduling it would be. Any other status: 409 `invalid_transition`.',
  security: SECURITY,
  request: {
    params: PostIdParam,
    body: { required: false, content: { 'application/json': { schema: SubmitPostSchema } } },
  },
  responses: { ...jsonResponse(PostSchema, 'The post, now in review.'), ...errorResponses(403, 409, 422) },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', permission: 'write', scope: 'post-write' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps } = c.var
  const post = await submitPost(deps, callerOf(c), c.req.valid('param').id, c.req.valid('json') ?? {})
  return c.json(post, 200)
}
