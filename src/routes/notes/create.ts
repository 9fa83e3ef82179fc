import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { callerOf } from '../../http/caller'
import { errorResponses, jsonResponse, SECURITY } from '../../http/openapi'
import type { RouteMeta } from '../../http/route-meta'
import { createNote } from '../../services/notes/notes'
import { CreatePostNoteSchema, PostNoteSchema } from '../../schemas/notes'
import { PostIdParam } from '../../schemas/posts'

export const route = createRoute({
  method: 'post',
  path: '/posts/{id}/notes',
  operationId: 'createPostNote',
  tags: ['Notes'],
  summary: 'Add a note to a post, mentioning members',
  description:
    'A note for the team, never published. Each mention is the user id of a member of the workspace ' +
    '(`GET /v1/members`); a mentioned member who can see the post is notified (kind `mentioned`). ' +
    'Anything else in `mentions` is 422 `invalid_option`.',
  security: SECURITY,
  request: {
    params: PostIdParam,
    body: { content: { 'application/json': { schema: CreatePostNoteSchema } }, required: true },
  },
  responses: { ...jsonResponse(PostNoteSchema, 'The note as stored.'), ...errorResponses(403, 413, 415, 422) },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', permission: 'comment', scope: 'post' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps } = c.var
  return c.json(await createNote(deps, callerOf(c), c.req.valid('param').id, c.req.valid('json')), 200)
}
