import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { errorResponses, jsonBody, jsonResponse, SECURITY } from '../../http/openapi'
import type { RouteMeta } from '../../http/route-meta'
import { assertAccountsVisible } from '../../services/access/visibility'
import { validateNewPost } from '../../services/posts/validate'
import { unknownBodyFields } from './body-fields'
import { CreatePostSchema, PostValidationSchema } from '../../schemas/posts'

export const route = createRoute({
  method: 'post',
  path: '/posts/validate',
  operationId: 'validatePost',
  tags: ['Posts'],
  summary: 'Dry run of a create: what each network would receive, and what create would refuse',
  description: [
    'Takes the body of `POST /v1/posts` and runs the same checks, from the same code, without writing anything (no post, no target, no idempotency record; the monthly plan count does not change).',
    "Per target: the caption that network receives (its override, else `caption`), its length as that network counts it and the budget it counts against, and the format it publishes as after the platform's fallback, with the errors and warnings that concern it.",
    "What create would refuse comes back in the answer (200, `valid: false`), each problem as create would name it in its 422 `details`, instead of an error status. Create stops at the first step that fails and so does this: an account or media id not in this workspace (another workspace's ids look the same: not found) is the only error then, and `targets` is empty. A body the schema refuses is still 400 `invalid_request`.",
    'Warnings are those create would answer. The answer is a snapshot: the plan cap, the queue and the boards can change before the create.',
  ].join('\n\n'),
  security: SECURITY,
  request: { body: jsonBody(CreatePostSchema) },
  responses: { ...jsonResponse(PostValidationSchema, 'What create would do with this body.'), ...errorResponses() },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps, auth } = c.var
  const warnings = await unknownBodyFields(c, CreatePostSchema)
  const body = c.req.valid('json')
  await assertAccountsVisible(deps.db, auth, body.accountIds)
  return c.json(await validateNewPost(deps, auth.workspaceId, body, warnings), 200)
}
