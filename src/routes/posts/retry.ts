import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { errorResponses, IdempotencyHeaders, jsonResponse, SECURITY } from '../../http/openapi'
import { retryFailedTargets } from '../../services/publishing/actions'
import { PostIdParam, PostSchema } from '../../schemas/posts'
import type { RouteMeta } from '../../http/route-meta'

export const route = createRoute({
  method: 'post',
  path: '/posts/{id}/retry',
  operationId: 'retryPost',
  tags: ['Posts'],
  summary: 'Publish the failed targets again',
  description:
    'Re-enqueues only FAILED targets; published ones are never touched, so nothing goes out twice. A thread resumes after the last part that went out. 409 `nothing_to_retry` when no target failed.',
  security: SECURITY,
  request: { headers: IdempotencyHeaders, params: PostIdParam },
  responses: { ...jsonResponse(PostSchema, 'The post, publishing its failed targets again.'), ...errorResponses(409) },
})

export const meta: RouteMeta = { idempotent: true, rateLimit: 'default', scope: 'post-write' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps, auth } = c.var
  return c.json(await retryFailedTargets(deps, auth.workspaceId, c.req.valid('param').id), 200)
}
