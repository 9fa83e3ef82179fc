import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { callerOf } from '../../http/caller'
import { errorResponses, jsonResponse, SECURITY } from '../../http/openapi'
import type { RouteMeta } from '../../http/route-meta'
import { ApprovePostSchema } from '../../schemas/approvals'
import { PostIdParam, PostSchema } from '../../schemas/posts'
import { approvePost } from '../../services/posts/approval'

export const route = createRoute({
  method: 'post',
  path: '/posts/{id}/approve',
  operationId: 'approvePost',
  tags: ['Posts'],
  summary: 'Approve a post in review',
  description:
    "An IN_REVIEW post becomes APPROVED, or, when it was submitted with an action, SCHEDULED (schedule, queue) or PUBLISHING (now) as that action would make it. Give `version` (the post's version you reviewed): if it changed since, 409 `post_changed` says what changed. Two approvals at once: one succeeds, the other is 409 `invalid_transition`.",
  security: SECURITY,
  request: {
    params: PostIdParam,
    body: { required: false, content: { 'application/json': { schema: ApprovePostSchema } } },
  },
  responses: { ...jsonResponse(PostSchema, 'The approved post.'), ...errorResponses(403, 409, 422) },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', permission: 'review', scope: 'post' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps } = c.var
  const post = await approvePost(deps, callerOf(c), c.req.valid('param').id, c.req.valid('json') ?? {})
  return c.json(post, 200)
}
