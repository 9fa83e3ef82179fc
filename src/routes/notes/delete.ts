import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { callerOf } from '../../http/caller'
import { errorResponses, jsonResponse, SECURITY } from '../../http/openapi'
import type { RouteMeta } from '../../http/route-meta'
import { deleteNote } from '../../services/notes/notes'
import { DeletedNoteSchema, NoteIdParams } from '../../schemas/notes'

export const route = createRoute({
  method: 'delete',
  path: '/posts/{id}/notes/{noteId}',
  operationId: 'deletePostNote',
  tags: ['Notes'],
  summary: 'Delete a note (its author, an owner or an admin)',
  security: SECURITY,
  request: { params: NoteIdParams },
  responses: { ...jsonResponse(DeletedNoteSchema, 'The note is deleted.'), ...errorResponses(403) },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', permission: 'comment', scope: 'post' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps } = c.var
  const { id, noteId } = c.req.valid('param')
  return c.json(await deleteNote(deps, callerOf(c), id, noteId), 200)
}
