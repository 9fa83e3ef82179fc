import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { errorResponses, IdempotencyHeaders, jsonBody, jsonResponse, SECURITY } from '../../http/openapi'
import { registerAsset } from '../../services/media/assets'
import { registerAssetFromUrl } from '../../services/media/from-url'
import { MediaAssetSchema, RegisterMediaBodySchema } from '../../schemas/media'
import type { RouteMeta } from '../../http/route-meta'

export const route = createRoute({
  method: 'post',
  path: '/media',
  operationId: 'registerMediaAsset',
  tags: ['Media'],
  summary: 'Register a file as an asset: a finished upload (step 3), or a file the service fetches from a URL',
  description: `The body is one of two shapes.

**A finished upload** (\`RegisterMedia\`: \`type\`, \`storageKey\`, \`url\` from \`POST /v1/media/uploads\`). Reads the file itself: its type from its first bytes, its size from the store, width and height from the image header, and a video's length and size from its MP4/MOV header. The optional \`mimeType\`, \`sizeBytes\`, \`width\`, \`height\` and \`durationSec\` are claims: any the file contradicts is refused.

- 422 \`media_not_found\`: nothing was uploaded under \`storageKey\` in your workspace (a key of another workspace gets the same answer).
- 422 \`invalid_option\`: \`url\` is not the object's URL, a claim disagrees with the file (\`details\` name each), the bytes are not the type they were uploaded as, or \`folderId\` is unknown.
- 422 \`media_not_supported\`: the file is not a supported image or video, or is over 2 GB.

Registering the same \`storageKey\` again returns the existing asset.

**A file from a URL** (\`RegisterMediaFromUrl\`: \`sourceUrl\`, optional \`type\`, \`altText\`, \`folderId\` or \`folder\`). The service fetches \`sourceUrl\` with GET and streams the answer into its own store under a new key of your workspace, then registers it exactly like an upload (same asset, same reading of the bytes; variants work the same). Only http and https addresses that are public (no loopback, private, link-local or metadata address, also after DNS and after each redirect; at most 5 redirects). The whole fetch must end within 30 seconds, and the file may be at most 2 GB: the read stops as soon as it passes that. Nothing is stored when the file is refused.

- 400 \`invalid_request\` with \`details[0].path\` \`sourceUrl\` and a \`reason\`: \`refused\` (not http(s), or not a public address), \`unreachable\` (no connection, or it broke off), \`status\` (the answer was not 2xx; \`details[0].status\` says which), \`timeout\`.
- 422 \`media_not_supported\`: the file is larger than 2 GB, empty, an HTML page or no supported image or video.
- 422 \`invalid_option\`: \`type\` disagrees with the file (\`details\` name \`type\`), or \`folderId\` is unknown.

Each call fetches again and makes a new asset; send an \`Idempotency-Key\` to make a retry safe.`,
  security: SECURITY,
  request: { headers: IdempotencyHeaders, body: jsonBody(RegisterMediaBodySchema) },
  responses: { ...jsonResponse(MediaAssetSchema, 'The asset; its `id` goes in `mediaIds`.'), ...errorResponses(422) },
})

export const meta: RouteMeta = { idempotent: true, rateLimit: 'default', permission: 'write' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps, auth } = c.var
  const body = c.req.valid('json')
  const asset =
    'sourceUrl' in body
      ? await registerAssetFromUrl(deps, auth.workspaceId, body)
      : await registerAsset(deps, auth.workspaceId, body)
  return c.json(asset, 200)
}
