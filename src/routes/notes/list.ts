import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { callerOf } from '../../http/caller'
import { errorResponses, jsonResponse, SECURITY } from '../../http/openapi'
import type { RouteMeta } from '../../http/route-meta'
import { listNotes } from '../../services/notes/notes'
import { PostNoteListSchema } from '../../schemas/notes'
import { PostIdParam } from '../../schemas/posts'

export const route = createRoute({
  method: 'get',
  path: '/posts/{id}/notes',
  operationId: 'listPostNotes',
  tags: ['Notes'],
  summary: "The team's notes on a post, oldest first",
  description: 'Internal discussion of a post; never published. 404 for a post the caller cannot see.',
  security: SECURITY,
  request: { params: PostIdParam },
  responses: { ...jsonResponse(PostNoteListSchema, 'The notes.'), ...errorResponses(403) },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', permission: 'read', scope: 'post' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps } = c.var
  return c.json({ data: await listNotes(deps, callerOf(c), c.req.valid('param').id) }, 200)
}
