import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { errorResponses, jsonResponse, SECURITY } from '../../http/openapi'
import type { RouteMeta } from '../../http/route-meta'
import { WorkspaceSettingsSchema } from '../../schemas/approvals'
import { getWorkspaceSettings } from '../../services/workspace/settings'

export const route = createRoute({
  method: 'get',
  path: '/workspace',
  operationId: 'getWorkspace',
  tags: ['Workspace'],
  summary: "The workspace's settings",
  description: 'Its name, time zone, whether posts need approval, and its plan (usage: `GET /v1/me`).',
  security: SECURITY,
  responses: { ...jsonResponse(WorkspaceSettingsSchema, 'The settings.'), ...errorResponses() },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', permission: 'read' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps, auth } = c.var
  return c.json(await getWorkspaceSettings(deps.db, auth.workspaceId), 200)
}
