import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { errorResponses, IdempotencyHeaders, jsonBody, jsonResponse, SECURITY } from '../../http/openapi'
import { createUpload } from '../../services/media/uploads'
import { CreateUploadSchema, UploadTicketSchema } from '../../schemas/media'
import type { RouteMeta } from '../../http/route-meta'

export const route = createRoute({
  method: 'post',
  path: '/media/uploads',
  operationId: 'createMediaUpload',
  tags: ['Media'],
  summary: 'Step 1 of an upload: a presigned PUT URL',
  description: `Upload is three calls and the bytes never pass through the API:
1. \`POST /v1/media/uploads\` gives \`uploadUrl\`, \`headers\`, \`storageKey\` and \`url\`.
2. \`PUT\` the bytes to \`uploadUrl\` with exactly \`headers\` (the content type, and the length when you gave \`sizeBytes\`, are part of the signature), within 10 minutes.
3. \`POST /v1/media\` with \`storageKey\` and \`url\` registers the asset.

Accepted: JPEG, PNG, GIF, WebP, BMP, TIFF images; MP4, MOV, M4V, WebM videos; at most 2,000,000,000 bytes (2 GB). Rate limit: 60 requests/minute.`,
  security: SECURITY,
  request: { headers: IdempotencyHeaders, body: jsonBody(CreateUploadSchema) },
  responses: { ...jsonResponse(UploadTicketSchema, 'Where and how to PUT the bytes.'), ...errorResponses(422) },
})

export const meta: RouteMeta = { idempotent: true, rateLimit: 'uploads', permission: 'write' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps, auth } = c.var
  return c.json(await createUpload(deps, auth.workspaceId, c.req.valid('json')), 200)
}
