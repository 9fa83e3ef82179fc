import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { callerOf } from '../../http/caller'
import { errorResponses, IdempotencyHeaders, jsonBody, jsonResponse, SECURITY } from '../../http/openapi'
import { createPost } from '../../services/posts/create'
import { unknownBodyFields } from './body-fields'
import { CreatePostSchema, WrittenPostSchema } from '../../schemas/posts'
import type { RouteMeta } from '../../http/route-meta'
import { assertAccountsVisible } from '../../services/access/visibility'

export const route = createRoute({
  method: 'post',
  path: '/posts',
  operationId: 'createPost',
  tags: ['Posts'],
  summary: 'Create a post: draft, publish now, schedule, or queue',
  description: [
    'One target per distinct account. Every rule of `GET /v1/platforms` is checked for every selected platform (with its caption override) and all violations come back at once in `details`, each naming its field and platform.',
    "Status right after create: `draft` -> DRAFT; `schedule` (needs a future `scheduledAt`) and `queue` (the earliest free slot occurrence) -> SCHEDULED; `now` -> PUBLISHING (publishing is asynchronous; read the post for each target's outcome).",
    'A draft saves without what can still be added later (media on a media-only network, a pinboard board); scheduling, queueing and publishing need it.',
    '`warnings` (never blocking) names body fields that are not part of the API (`unknown_field`, e.g. a misspelt `capton`) and fields none of the chosen networks uses (`not_applicable`). An idempotent replay answers them again. `POST /v1/posts/validate` runs the same checks without writing.',
  ].join('\n\n'),
  security: SECURITY,
  request: { headers: IdempotencyHeaders, body: jsonBody(CreatePostSchema) },
  responses: {
    ...jsonResponse(WrittenPostSchema, 'The created post, with its warnings.'),
    ...errorResponses(403, 422),
  },
})

export const meta: RouteMeta = {
  idempotent: true,
  answerInTransaction: true,
  rateLimit: 'default',
  permission: 'write',
}

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps, auth } = c.var
  const warnings = await unknownBodyFields(c, CreatePostSchema)
  const body = c.req.valid('json')
  await assertAccountsVisible(deps.db, auth, body.accountIds)
  return c.json(await createPost(deps, callerOf(c), body, warnings, c.var.idempotency), 200)
}
