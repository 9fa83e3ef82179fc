import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { errorResponses, jsonResponse, SECURITY } from '../../http/openapi'
import { getWorkspaceOverview } from '../../services/workspace/workspaces'
import { WorkspaceSchema } from '../../schemas/me'
import type { RouteMeta } from '../../http/route-meta'

export const route = createRoute({
  method: 'get',
  path: '/me',
  operationId: 'getMe',
  tags: ['Workspace'],
  summary: 'The workspace of the token, its plan, usage and stats',
  description: 'The cheapest call to verify a token.',
  security: SECURITY,
  responses: { ...jsonResponse(WorkspaceSchema, 'The workspace.'), ...errorResponses() },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', permission: 'read' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps, auth } = c.var
  return c.json(await getWorkspaceOverview(deps.db, auth.workspaceId, deps.clock.now()), 200)
}
