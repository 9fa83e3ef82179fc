import { createRoute, type RouteHandler } from '@hono/zod-openapi'
import type { AppEnv } from '../../http/context'
import { errorResponses, jsonResponse, SECURITY } from '../../http/openapi'
import { RULES } from '../../domain/rules/index'
import { RulesRegistrySchema } from '../../domain/rules/schema'
import type { RouteMeta } from '../../http/route-meta'

export const route = createRoute({
  method: 'get',
  path: '/platforms',
  operationId: 'listPlatforms',
  tags: ['Reference'],
  summary: 'The rules registry: caption budgets, media rules, formats, thread caps, recommended specs',
  description:
    'Exactly the object the validator and the publisher enforce, so clients can read limits here instead of hard-coding them. Keyed by platform id.',
  security: SECURITY,
  responses: { ...jsonResponse(RulesRegistrySchema, 'Rules of all twenty platform ids.'), ...errorResponses() },
})

export const meta: RouteMeta = { idempotent: false, rateLimit: 'default', permission: 'read' }

export const handler: RouteHandler<typeof route, AppEnv> = (c) => c.json(RULES, 200)
