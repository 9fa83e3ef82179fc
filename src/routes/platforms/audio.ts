import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { errorResponses, jsonResponse, SECURITY } from '../../http/openapi'
import type { RouteMeta } from '../../http/route-meta'
import { AudioCatalogueSchema, AudioQuerySchema, PlatformParam } from '../../schemas/platforms'
import { listAudio } from '../../services/accounts/audio'

export const route = createRoute({
  method: 'get',
  path: '/platforms/{platform}/audio',
  operationId: 'listPlatformAudio',
  tags: ['Reference'],
  summary: 'Audio tracks for reels and short video',
  description:
    "The tracks the platform's reel formats can take as `audio.audioId`. The catalogue is the network's and is read with one account's token: give `accountId` of an account connected the way `options.audio.catalogue` of the platform's rules names (today PHOTO_NET through SOCIALGRAPH_LOGIN), with `query` to search and `cursor` for the next page. Otherwise the list is empty and `reason` says why. Another workspace's account is 404; a refusal of the network is 422 `invalid_option` in its words (429 `rate_limited` when it asks to wait).",
  security: SECURITY,
  request: { params: PlatformParam, query: AudioQuerySchema },
  responses: {
    ...jsonResponse(AudioCatalogueSchema, 'The catalogue and why it is what it is.'),
    ...errorResponses(422),
  },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', permission: 'read' }

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const { deps, auth } = c.var
  const ask = { ...c.req.valid('query'), platform: c.req.valid('param').platform }
  return c.json(await listAudio(deps, auth.workspaceId, ask), 200)
}
