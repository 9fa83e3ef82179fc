import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { callerOf } from '../../http/caller'
import { errorResponses, jsonBody, jsonResponse, SECURITY } from '../../http/openapi'
import type { RouteMeta } from '../../http/route-meta'
import { RequestPostChangesSchema } from '../../schemas/approvals'
import { PostIdParam, PostSchema } from '../../schemas/posts'
import { requestPostChanges } from '../../services/posts/approval'

export const route = createRoute({
  method: 'post',
  path: '/posts/{id}/request-changes',
  operationId: 'requestPostChanges',
  tags: ['Posts'],
  summary: 'Send a post in review back with a comment',
  description:
    'An IN_REVIEW post becomes CHANGES_REQUESTED; `comment` (required) is kept in its `approval` for the submitter, who edits the post and submits it again. A stale `version`: 409 `post_changed`.',
  security: SECURITY,
  request: { params: PostIdParam, body: jsonBody(RequestPostChangesSchema) },
  responses: { ...jsonResponse(PostSchema, 'The post, with changes requested.'), ...errorResponses(403, 409, 422) },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', permission: 'review', scope: 'post' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps } = c.var
  return c.json(await requestPostChanges(deps, callerOf(c), c.req.valid('param').id, c.req.valid('json')), 200)
}
