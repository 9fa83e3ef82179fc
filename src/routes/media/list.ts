import { createRoute, z, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { errorResponses, SECURITY } from '../../http/openapi'
import { listAssetPage, listAssets } from '../../services/media/assets'
import { ListMediaQuery, MEDIA_PAGE_DEFAULT, MediaAssetSchema, MediaPageSchema } from '../../schemas/media'
import type { RouteMeta } from '../../http/route-meta'

export const route = createRoute({
  method: 'get',
  path: '/media',
  operationId: 'listMediaAssets',
  tags: ['Media'],
  summary: 'The workspace media library',
  description:
    'Every asset, variants included, newest first (ties by id). `folderId` limits it to one folder (an unknown ' +
    'folder gives an empty list).\n\nWithout `limit` or `cursor`: a plain array of every asset. With either: a page ' +
    `\`{ data, nextCursor }\` of at most \`limit\` assets (default ${MEDIA_PAGE_DEFAULT}); pass \`nextCursor\` as ` +
    '`cursor` (with the same `folderId` and `limit`) for the next page, until it is null. Assets added meanwhile ' +
    'do not shift the pages. An unknown `cursor` is 400.',
  security: SECURITY,
  request: { query: ListMediaQuery },
  responses: {
    200: {
      description: 'The assets, newest first: an array without `limit` and `cursor`, a page with either.',
      content: { 'application/json': { schema: z.union([z.array(MediaAssetSchema), MediaPageSchema]) } },
    },
    ...errorResponses(),
  },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', permission: 'read' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps, auth } = c.var
  const { limit, cursor, folderId } = c.req.valid('query')
  if (limit === undefined && cursor === undefined)
    return c.json(await listAssets(deps.db, auth.workspaceId, { folderId }), 200)
  const page = { folderId, cursor, limit: limit ?? MEDIA_PAGE_DEFAULT }
  return c.json(await listAssetPage(deps.db, auth.workspaceId, page), 200)
}
