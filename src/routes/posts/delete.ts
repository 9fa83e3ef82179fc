import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { errorResponses, jsonResponse, SECURITY } from '../../http/openapi'
import { deletePost } from '../../services/posts/write'
import { DeletedPostSchema, PostIdParam } from './schema'
import type { RouteMeta } from '../../http/route-meta'

export const route = createRoute({
  method: 'delete',
  path: '/posts/{id}',
  operationId: 'deletePost',
  tags: ['Posts'],
  summary: 'Delete a post and cancel its pending publishes',
  description: "Removes the service's copy. Anything already published on a network stays published.",
  security: SECURITY,
  request: { params: PostIdParam },
  responses: {
    ...jsonResponse(DeletedPostSchema, 'The post is gone.'),
    ...errorResponses(),
  },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps, auth } = c.var
  return c.json(await deletePost(deps, auth.workspaceId, c.req.valid('param').id), 200)
}
