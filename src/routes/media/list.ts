import { createRoute, z, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { errorResponses, jsonResponse, SECURITY } from '../../http/openapi'
import { listAssets } from '../../services/media-assets'
import { ListMediaQuery, MediaAssetSchema } from './schema'
import type { RouteMeta } from '../../http/route-meta'

export const route = createRoute({
  method: 'get',
  path: '/media',
  tags: ['Media'],
  summary: 'The workspace media library',
  description:
    'Every asset, variants included, newest first. `folderId` limits it to one folder (an unknown folder gives an empty list).',
  security: SECURITY,
  request: { query: ListMediaQuery },
  responses: { ...jsonResponse(z.array(MediaAssetSchema), 'The assets, newest first.'), ...errorResponses() },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps, auth } = c.var
  return c.json(await listAssets(deps.db, auth.workspaceId, c.req.valid('query')), 200)
}
