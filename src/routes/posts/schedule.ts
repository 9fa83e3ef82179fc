import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { callerOf } from '../../http/caller'
import { errorResponses, jsonBody, jsonResponse, SECURITY } from '../../http/openapi'
import { reschedulePost } from '../../services/posts/update'
import { unknownBodyFields } from './body-fields'
import { PostIdParam, SchedulePostSchema, WrittenPostSchema } from '../../schemas/posts'
import type { RouteMeta } from '../../http/route-meta'

export const route = createRoute({
  method: 'post',
  path: '/posts/{id}/schedule',
  operationId: 'schedulePost',
  tags: ['Posts'],
  summary: 'Move a post to a new time',
  description:
    'The post becomes (or stays) SCHEDULED at `scheduledAt`, which must be in the future. Publishes planned for the old time are cancelled. `warnings` (never blocking) names body fields other than `scheduledAt` (`unknown_field`) and fields of the post that none of its networks uses (`not_applicable`).',
  security: SECURITY,
  request: { params: PostIdParam, body: jsonBody(SchedulePostSchema) },
  responses: {
    ...jsonResponse(WrittenPostSchema, 'The rescheduled post, with its warnings.'),
    ...errorResponses(409, 422),
  },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', permission: 'publish', scope: 'post-write' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps } = c.var
  const warnings = await unknownBodyFields(c, SchedulePostSchema)
  const { id } = c.req.valid('param')
  return c.json(await reschedulePost(deps, callerOf(c), id, c.req.valid('json').scheduledAt, warnings), 200)
}
