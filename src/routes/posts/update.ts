import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { callerOf } from '../../http/caller'
import { errorResponses, jsonResponse, SECURITY } from '../../http/openapi'
import { updatePost } from '../../services/posts/update'
import { unknownBodyFields } from './body-fields'
import { PostIdParam, UpdatePostSchema, WrittenPostSchema } from '../../schemas/posts'
import type { RouteMeta } from '../../http/route-meta'
import { assertAccountsVisible } from '../../services/access/visibility'

export const route = createRoute({
  method: 'patch',
  path: '/posts/{id}',
  operationId: 'updatePost',
  tags: ['Posts'],
  summary: 'Edit a post',
  description:
    'Every field is optional; `null` clears one. Without `action` the post goes back to DRAFT (and gives up a queue slot); with `action` the edit comes first, then the action. A post that is publishing, or of which anything has been published, cannot be edited (409 `post_not_editable`). `warnings` (never blocking) names body fields that are not part of the API (`unknown_field`) and fields of the edited post that none of its networks uses (`not_applicable`).',
  security: SECURITY,
  request: {
    params: PostIdParam,
    body: { required: false, content: { 'application/json': { schema: UpdatePostSchema } } },
  },
  responses: {
    ...jsonResponse(WrittenPostSchema, 'The updated post, with its warnings.'),
    ...errorResponses(409, 422),
  },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', permission: 'write', scope: 'post-write' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps, auth } = c.var
  const warnings = await unknownBodyFields(c, UpdatePostSchema)
  const body = c.req.valid('json') ?? {}
  await assertAccountsVisible(deps.db, auth, body.accountIds ?? [])
  const post = await updatePost(deps, callerOf(c), c.req.valid('param').id, body, warnings)
  return c.json(post, 200)
}
