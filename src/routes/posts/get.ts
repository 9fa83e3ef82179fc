import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { errorResponses, jsonResponse, SECURITY } from '../../http/openapi'
import { getPost } from '../../services/posts/read'
import { PostIdParam, PostSchema } from '../../schemas/posts'
import type { RouteMeta } from '../../http/route-meta'

export const route = createRoute({
  method: 'get',
  path: '/posts/{id}',
  operationId: 'getPost',
  tags: ['Posts'],
  summary: "One post with every target's status, permalink and error",
  security: SECURITY,
  request: { params: PostIdParam },
  responses: { ...jsonResponse(PostSchema, 'The post.'), ...errorResponses() },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', scope: 'post' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps, auth } = c.var
  return c.json(await getPost(deps.db, auth.workspaceId, c.req.valid('param').id), 200)
}
