import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import { audioCatalogue } from '../../domain/rules/audio-catalogues'
import type { AppEnv } from '../../http/context'
import { errorResponses, jsonResponse, SECURITY } from '../../http/openapi'
import type { RouteMeta } from '../../http/route-meta'
import { AudioCatalogueSchema, PlatformParam } from '../../schemas/platforms'

export const route = createRoute({
  method: 'get',
  path: '/platforms/{platform}/audio',
  operationId: 'listPlatformAudio',
  tags: ['Reference'],
  summary: 'Audio tracks for reels and short video',
  description:
    "The tracks the platform's reel or short-video formats can take as `audio.audioId`. No network's catalogue is read today, so the list is empty and `reason` says why (the network offers none to third parties, or this service does not read it yet).",
  security: SECURITY,
  request: { params: PlatformParam },
  responses: { ...jsonResponse(AudioCatalogueSchema, 'The catalogue and why it is what it is.'), ...errorResponses() },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default' }

export const handler: RouteHandler<typeof route, AppEnv> = (c) =>
  c.json(audioCatalogue(c.req.valid('param').platform), 200)
