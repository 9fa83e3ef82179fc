import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { errorResponses, jsonResponse, SECURITY } from '../../http/openapi'
import { getAsset } from '../../services/media/assets'
import { MediaAssetSchema, MediaIdParam } from '../../schemas/media'
import type { RouteMeta } from '../../http/route-meta'

export const route = createRoute({
  method: 'get',
  path: '/media/{id}',
  operationId: 'getMediaAsset',
  tags: ['Media'],
  summary: 'One media asset',
  description: 'An id that is not in your workspace is 404.',
  security: SECURITY,
  request: { params: MediaIdParam },
  responses: { ...jsonResponse(MediaAssetSchema, 'The asset.'), ...errorResponses() },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', permission: 'read' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps, auth } = c.var
  return c.json(await getAsset(deps.db, auth.workspaceId, c.req.valid('param').id), 200)
}
