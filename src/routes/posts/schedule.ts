import { IsoInstantSchema } from '../../domain/post-content'
import { createRoute, z, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { errorResponses, jsonBody, jsonResponse, SECURITY } from '../../http/openapi'
import { reschedulePost } from '../../services/posts/write'
import { PostIdParam, PostSchema } from './schema'
import type { RouteMeta } from '../../http/route-meta'

const ScheduleBody = z
  .object({ scheduledAt: IsoInstantSchema.meta({ example: '2026-12-01T09:30:00Z' }) })
  .openapi('SchedulePost')

export const route = createRoute({
  method: 'post',
  path: '/posts/{id}/schedule',
  tags: ['Posts'],
  summary: 'Move a post to a new time',
  description:
    'The post becomes (or stays) SCHEDULED at `scheduledAt`, which must be in the future. Publishes planned for the old time are cancelled.',
  security: SECURITY,
  request: { params: PostIdParam, body: jsonBody(ScheduleBody) },
  responses: { ...jsonResponse(PostSchema, 'The rescheduled post.'), ...errorResponses(409, 422) },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps, auth } = c.var
  return c.json(
    await reschedulePost(deps, auth.workspaceId, c.req.valid('param').id, c.req.valid('json').scheduledAt),
    200,
  )
}
