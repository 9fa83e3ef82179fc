import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { errorResponses, IdempotencyHeaders, jsonBody, jsonResponse, SECURITY } from '../../http/openapi'
import { registerAsset } from '../../services/media-assets'
import { MediaAssetSchema, RegisterMediaSchema } from './schema'
import type { RouteMeta } from '../../http/route-meta'

export const route = createRoute({
  method: 'post',
  path: '/media',
  tags: ['Media'],
  summary: 'Step 3 of an upload: register the stored file as an asset',
  description: `Reads the file itself: its type from its first bytes, its size from the store, width and height from the image header, and a video's length and size from its MP4/MOV header. The optional \`mimeType\`, \`sizeBytes\`, \`width\`, \`height\` and \`durationSec\` are claims: any the file contradicts is refused.

- 422 \`media_not_found\`: nothing was uploaded under \`storageKey\` in your workspace (a key of another workspace gets the same answer).
- 422 \`invalid_option\`: \`url\` is not the object's URL, a claim disagrees with the file (\`details\` name each), the bytes are not the type they were uploaded as, or \`folderId\` is unknown.
- 422 \`media_not_supported\`: the file is not a supported image or video, or is over 2 GB.

Registering the same \`storageKey\` again returns the existing asset.`,
  security: SECURITY,
  request: { headers: IdempotencyHeaders, body: jsonBody(RegisterMediaSchema) },
  responses: { ...jsonResponse(MediaAssetSchema, 'The asset; its `id` goes in `mediaIds`.'), ...errorResponses(422) },
})

export const meta: RouteMeta = { idempotent: true, rateLimit: 'default' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps, auth } = c.var
  return c.json(await registerAsset(deps, auth.workspaceId, c.req.valid('json')), 200)
}
