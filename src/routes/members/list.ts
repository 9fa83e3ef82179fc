import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { callerOf } from '../../http/caller'
import { errorResponses, jsonResponse, SECURITY } from '../../http/openapi'
import type { RouteMeta } from '../../http/route-meta'
import { listMembersWithGroups } from '../../services/notes/notes'
import { MemberListSchema } from '../../schemas/notes'

export const route = createRoute({
  method: 'get',
  path: '/members',
  operationId: 'listMembers',
  tags: ['Notes'],
  summary: "The workspace's members (whom a note can mention)",
  security: SECURITY,
  responses: { ...jsonResponse(MemberListSchema, 'The members, by name.'), ...errorResponses(403) },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', permission: 'read' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps } = c.var
  return c.json({ data: await listMembersWithGroups(deps, callerOf(c)) }, 200)
}
