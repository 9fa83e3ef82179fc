import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { errorResponses, jsonResponse, SECURITY } from '../../http/openapi'
import type { RouteMeta } from '../../http/route-meta'
import { editAsset } from '../../services/media/edit'
import { MediaAssetSchema, MediaIdParam, UpdateMediaSchema } from '../../schemas/media'

export const route = createRoute({
  method: 'patch',
  path: '/media/{id}',
  operationId: 'updateMediaAsset',
  tags: ['Media'],
  summary: "Change a file's alt text or folder",
  description:
    "Every field is optional (an empty body changes nothing). The file itself never changes. A new alt text is also given to the asset's variants (they show the same picture); posts already published keep what the network received. An unknown `folderId` is 422 `invalid_option`; an id that is not in your workspace is 404.",
  security: SECURITY,
  request: {
    params: MediaIdParam,
    body: { required: true, content: { 'application/json': { schema: UpdateMediaSchema } } },
  },
  responses: { ...jsonResponse(MediaAssetSchema, 'The asset as it is now.'), ...errorResponses(422) },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', permission: 'write' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps, auth } = c.var
  return c.json(await editAsset(deps, auth.workspaceId, c.req.valid('param').id, c.req.valid('json')), 200)
}
