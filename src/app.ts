import { OpenAPIHono } from '@hono/zod-openapi'
import { swaggerUI } from '@hono/swagger-ui'
import type { Deps } from './deps'
import { requireToken } from './http/auth'
import { limitBody, requireJsonBody } from './http/body-guard'
import type { AppEnv } from './http/context'
import { errorResponse } from './http/error-response'
import { AppError } from './domain/errors'
import { validationHook } from './http/openapi'
import { rateLimit } from './http/rate-limit'
import { requestId } from './http/request-id'
import { registerRoutes } from './routes'
import { createInternalRoutes } from './routes/internal'
import { sandboxSite } from './routes/sandbox'

export const OPENAPI_PATH = '/v1/openapi.json'

const API_DESCRIPTION = `Schedules and publishes one post to many social accounts across twelve networks.

**Authentication**: every \`/v1\` route needs \`Authorization: Bearer <token>\` (a personal access token, \`sps_\` followed by 43 characters). The token carries exactly one workspace; no route takes a workspace id. A missing, malformed, unknown or revoked token is answered 401.

**Errors**: every success is HTTP 200. Every other answer has the body \`{ "error": { "code", "message", "details"?, "requestId" } }\` and the same request id in the \`X-Request-Id\` header. An id that is not in your workspace is 404, never 403.

**Rate limits** per client IP over a sliding minute: 120 by default, 10 for \`POST /v1/posts/bulk\`, 60 for \`POST /v1/media/uploads\`, 30 for \`POST /v1/media/{id}/variants\`. Every answer carries \`RateLimit-Limit\`, \`RateLimit-Remaining\` and \`RateLimit-Reset\` (seconds until the window ends); a 429 also carries \`Retry-After\` (seconds).

**Bodies** are JSON with \`Content-Type: application/json\` (else 415) and at most 1 MiB unless a route says otherwise (else 413). Additional properties are allowed and ignored.`

/** The whole HTTP API over the given dependencies; the Worker and Node entries differ only in `deps`. */
export function createApp(deps: Deps): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })

  app.use('*', async (c, next) => {
    c.set('deps', deps)
    await next()
  })
  app.use('*', requestId())
  // `/internal` callbacks come from the platform (QStash) in bursts, and are authenticated by signature.
  app.use('*', async (c, next) => (c.req.path.startsWith('/internal/') ? next() : rateLimit()(c, next)))
  app.use('/v1/*', async (c, next) => (c.req.path === OPENAPI_PATH ? next() : requireToken()(c, next)))
  app.use('/v1/*', limitBody(deps.settings.maxBodyBytes))
  app.use('/v1/*', requireJsonBody())

  const v1 = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
  registerRoutes(v1)
  app.route('/v1', v1)
  app.route('/internal', createInternalRoutes())
  // The simulated network's own public pages (permalinks of SANDBOX posts): outside /v1, no token.
  app.route('/sandbox', sandboxSite())

  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: 'A personal access token: `sps_` followed by 43 letters and digits.',
  })
  app.doc31(OPENAPI_PATH, (c) => ({
    openapi: '3.1.0',
    info: { title: 'Social Publishing API', version: '1.0.0', description: API_DESCRIPTION },
    servers: [{ url: deps.settings.publicUrl ?? new URL(c.req.url).origin }],
    security: [{ bearerAuth: [] }],
  }))
  app.get('/docs', swaggerUI({ url: OPENAPI_PATH, title: 'Social Publishing API reference' }))
  app.get('/', (c) => c.redirect('/docs'))

  app.notFound((c) => errorResponse(c, new AppError('not_found', `No route ${c.req.method} ${c.req.path}.`)))
  app.onError((err, c) => errorResponse(c, err))
  return app
}
