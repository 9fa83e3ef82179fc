import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { errorResponses, IdempotencyHeaders, jsonResponse, SECURITY } from '../../http/openapi'
import { publishPostNow } from '../../services/publishing/actions'
import { PostIdParam, PostSchema } from '../../schemas/posts'
import type { RouteMeta } from '../../http/route-meta'

export const route = createRoute({
  method: 'post',
  path: '/posts/{id}/publish',
  operationId: 'publishPost',
  tags: ['Posts'],
  summary: 'Publish a post now, whatever it was scheduled for',
  description:
    "The post becomes PUBLISHING at once and each target goes out asynchronously; read the post for each target's outcome. Targets already published are left alone. Publishing a post that is already publishing changes nothing; a published one is 409.",
  security: SECURITY,
  request: { headers: IdempotencyHeaders, params: PostIdParam },
  responses: { ...jsonResponse(PostSchema, 'The post, now publishing.'), ...errorResponses(409, 422) },
})

export const meta: RouteMeta = { idempotent: true, rateLimit: 'default', scope: 'post-write' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps, auth } = c.var
  return c.json(await publishPostNow(deps, auth.workspaceId, c.req.valid('param').id), 200)
}
