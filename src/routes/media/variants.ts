import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { errorResponses, IdempotencyHeaders, jsonBody, jsonResponse, SECURITY } from '../../http/openapi'
import { createVariants } from '../../services/media/variants'
import { CreateVariantsSchema, MediaIdParam, VariantsResultSchema } from '../../schemas/media'
import type { RouteMeta } from '../../http/route-meta'

export const route = createRoute({
  method: 'post',
  path: '/media/{id}/variants',
  operationId: 'createMediaVariants',
  tags: ['Media'],
  summary: 'Cut an image into platform canvases',
  description: `Canvases: \`feed_portrait\` 1080x1350 (4:5), \`feed_square\` 1080x1080 (1:1), \`landscape\` 1080x566 (1.91:1), \`story\` 1080x1920 (9:16). Every variant is exactly its canvas's size, a JPEG, and a new image asset (its \`id\` can go in \`mediaIds\`) with the source's alt text and folder.

- \`fit: cover\` (default) fills the canvas and crops what sticks out; \`crop: smart\` (default) keeps the most salient region (faces and skin tones, detail, saturation) in frame, \`crop: centre\` cuts the middle.
- \`fit: contain\` shows the whole image, centred, and pads the rest of the canvas white.

Formats with the same dimensions share one file. Asking again for a variant already made (same source, format, fit and crop) returns it instead of making a new one.

Sources: JPEG (decoded at a reduced scale; baseline JPEGs up to about 24 MP, progressive ones up to about 12 MP) and PNG up to 6 MP. A video, or another image type, is 422 \`media_not_supported\`. Rate limit: 30 requests/minute.`,
  security: SECURITY,
  request: { headers: IdempotencyHeaders, params: MediaIdParam, body: jsonBody(CreateVariantsSchema) },
  responses: {
    ...jsonResponse(VariantsResultSchema, 'One entry per requested format, in the order asked.'),
    ...errorResponses(422),
  },
})

export const meta: RouteMeta = { idempotent: true, rateLimit: 'variants', permission: 'write' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps, auth } = c.var
  return c.json(await createVariants(deps, auth.workspaceId, c.req.valid('param').id, c.req.valid('json')), 200)
}
