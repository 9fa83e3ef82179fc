import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { callerOf } from '../../http/caller'
import { errorResponses, jsonBody, jsonResponse, SECURITY } from '../../http/openapi'
import type { RouteMeta } from '../../http/route-meta'
import { UpdateWorkspaceSchema, WorkspaceSettingsSchema } from '../../schemas/approvals'
import { updateWorkspaceSettings } from '../../services/workspace/settings'

export const route = createRoute({
  method: 'patch',
  path: '/workspace',
  operationId: 'updateWorkspace',
  tags: ['Workspace'],
  summary: "Change the workspace's settings",
  description:
    'Only the fields given change: `name` (1 to 100 characters), `timezone` (an IANA name), `approvalRequired` (every post then needs approval before it is scheduled, queued or published; posts already scheduled stay scheduled). Owners and admins only.',
  security: SECURITY,
  request: { body: jsonBody(UpdateWorkspaceSchema) },
  responses: { ...jsonResponse(WorkspaceSettingsSchema, 'The settings as saved.'), ...errorResponses(403) },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', permission: 'manage' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps } = c.var
  return c.json(await updateWorkspaceSettings(deps, callerOf(c), c.req.valid('json')), 200)
}
