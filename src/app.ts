import { OpenAPIHono } from '@hono/zod-openapi'
import type { Context, Handler } from 'hono'
import type { AppSettings, Deps } from './deps'
import { requireToken } from './http/auth'
import { corsFor } from './http/cors'
import { docsSite } from './http/docs'
import { limitBody, requireJsonBody } from './http/body-guard'
import type { AppEnv } from './http/context'
import { errorResponse } from './http/error-response'
import { AppError } from './domain/errors'
import { registerResponseHeaders, validationHook } from './http/openapi'
import { registerWebhookDocs } from './routes/events/webhook-docs'
import { rateLimit } from './http/rate-limit'
import { admit, type Admission } from './http/admission'
import { allowedMethodsResolver, bucketResolver } from './http/route-meta'
import { requestId } from './http/request-id'
import { requestLog } from './http/request-log'
import { rejectUnstorableText } from './http/input-guard'
import { registerRoutes } from './routes'
import { createInternalRoutes } from './routes/internal'
import { connectSite, oauthCallbackSite } from './routes/connect'
import { getHealth } from './routes/health/get-health'
import { sandboxSite } from './routes/sandbox'
import { createDashboard } from './dashboard/app'
import { faviconIco } from './dashboard/assets/favicon'
import { dashboardErrorPage } from './dashboard/error-page'
import { createReviewSite, reviewErrorPage } from './dashboard/review/site'
import { agentOAuthSite, wellKnownSite } from './routes/agent-oauth'
import { resourceMetadataUrlOf } from './routes/agent-oauth/metadata'

export const OPENAPI_PATH = '/v1/openapi.json'

const API_DESCRIPTION = `Schedules and publishes one post to many social accounts across twenty networks.

**Authentication**: every \`/v1\` route needs \`Authorization: Bearer <token>\` (a personal access token, \`sps_\` followed by 43 characters). The token carries exactly one workspace; no route takes a workspace id. A missing, malformed, unknown or revoked token is answered 401.

**Errors**: every success is HTTP 200. Every other answer has the body \`{ "error": { "code", "message", "details"?, "requestId" } }\` and the same request id in the \`X-Request-Id\` header (a valid \`X-Request-Id\` you send, 1-128 characters of \`[A-Za-z0-9._:-]\`, is kept). An id that is not in your workspace is 404, never 403. A 401 carries \`WWW-Authenticate: Bearer\`; a known path with another method is 405 with \`Allow\`.

**Rate limits** per client IP over a sliding minute: 120 by default, 10 for \`POST /v1/posts/bulk\`, 60 for \`POST /v1/media/uploads\`, 30 for \`POST /v1/media/{id}/variants\`. Every answer carries \`RateLimit-Limit\`, \`RateLimit-Remaining\` and \`RateLimit-Reset\` (seconds until the window ends); a 429 also carries \`Retry-After\` (seconds).

**Bodies** are JSON with \`Content-Type: application/json\` (else 415) and at most 1 MiB unless a route says otherwise (else 413). Additional properties are allowed and ignored.`

/** The groups of operations in the reference, in the order it shows them. */
const API_TAGS = [
  { name: 'Workspace', description: 'The workspace the token belongs to: its plan, limits and usage.' },
  { name: 'Accounts', description: 'The social accounts connected to the workspace, and their boards.' },
  { name: 'Reference', description: 'The networks and the rules each one checks a post against.' },
  { name: 'Posts', description: 'Writing, scheduling, publishing and retrying posts, one target per account.' },
  { name: 'Media', description: 'Uploading images and videos, and the per-network variants made from them.' },
  { name: 'Queue', description: 'The weekly slots that queued posts are scheduled into.' },
  { name: 'Analytics', description: 'What published posts did, and the best times to post.' },
  {
    name: 'Webhooks',
    description: 'Signed pushes of every publish outcome and account change: endpoints, delivery log, events, replay.',
  },
  { name: 'Activity', description: 'Who did what, when and from where: the activity log, as JSON or CSV.' },
  {
    name: 'Review links',
    description: 'Signed, expiring pages where a client without an account reviews the upcoming posts of a group.',
  },
]

/** The top of the OpenAPI document; `serverUrl` is the public URL, else the origin the request came to. */
export const openApiDocument = (serverUrl: string) => ({
  openapi: '3.1.0',
  info: {
    title: 'Social Publishing API',
    version: '1.0.0',
    description: API_DESCRIPTION,
    license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
  },
  servers: [{ url: serverUrl, description: 'This deployment.' }],
  security: [{ bearerAuth: [] }],
  tags: API_TAGS,
})

/** The deps one request works with, and what to do once it is answered. */
export interface RequestScope {
  deps: Deps
  /** Runs after the answer (on Workers through `waitUntil`): closes what the request opened. */
  release?: () => Promise<void>
}

export interface AppOptions {
  /** The body cap and public URL the app is built with (the same as every request's `deps.settings`). */
  settings: Pick<AppSettings, 'maxBodyBytes' | 'publicUrl' | 'corsOrigins'>
  /** One set of deps for the process (Node), or each request's own (Workers: a database pool per request). */
  depsFor: (c: Context<AppEnv>) => RequestScope | Promise<RequestScope>
  /** The address rate limits count by: `CF-Connecting-IP` on Workers, the socket (or a trusted proxy) on Node. */
  clientIp: (c: Context) => string
  /** Node on PGlite: turns for the requests after the signed callbacks, so past capacity they get 503 rather than wait. */
  admission?: Admission
}

/** Options for a process that serves every request with the same deps. */
export const appOptions = (deps: Deps, clientIp: AppOptions['clientIp']): AppOptions => ({
  settings: deps.settings,
  depsFor: () => ({ deps }),
  clientIp,
})

/** Hands a request's clean-up to the runtime when it has one (Workers), else runs it now. */
function afterAnswer(c: Context<AppEnv>, release: () => Promise<void>): Promise<void> | undefined {
  let ctx: { waitUntil(p: Promise<unknown>): void } | undefined
  try {
    ctx = c.executionCtx
  } catch {
    ctx = undefined // Node: no execution context
  }
  if (!ctx) return release()
  ctx.waitUntil(release())
  return undefined
}

/**
 * The MCP endpoint, its module (and the MCP SDK with its JSON Schema validator, about 0.2 s of
 * loading on Node) imported on the first call rather than at start: most starts never serve an agent.
 */
function mcpEndpointOnFirstCall(): Handler<AppEnv> {
  let endpoint: Promise<Handler<AppEnv>> | undefined
  return async (c, next) => {
    endpoint ??= import('./mcp/server').then((module) => module.mcpEndpoint())
    return (await endpoint)(c, next)
  }
}

/**
 * The whole HTTP API; the Worker and Node entries differ only in where a request's deps come
 * from. The order of registration is the order of protection: the delivery service's signed
 * callbacks, then the per-IP rate limit, the public reference, then token auth and body guards
 * in front of `/v1`.
 */
export function createApp(options: AppOptions): OpenAPIHono<AppEnv> {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
  const v1 = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
  const bucketFor = bucketResolver(registerRoutes(v1))

  app.use('*', requestId())
  app.use('*', async (c, next) => {
    c.set('clientIp', options.clientIp(c))
    const scope = await options.depsFor(c)
    c.set('deps', scope.deps)
    try {
      await next()
    } finally {
      const { release } = scope
      const bodyDone = c.get('bodyDone')
      if (release) await afterAnswer(c, bodyDone ? () => bodyDone.then(release) : release)
    }
  })
  app.use('*', requestLog())
  // Browser preflights are answered here: no token, and not counted as API calls.
  const cors = corsFor(options.settings.corsOrigins)
  if (cors) app.use('*', cors)
  // Publish callbacks come from the delivery service (QStash) in bursts, authenticated by signature: no IP limit.
  app.route('/internal', createInternalRoutes())
  // Monitors and load balancers poll the health check from one address, with no token: before the limit.
  app.get('/health', getHealth)
  app.use('*', rateLimit(bucketFor))
  if (options.admission) app.use('*', admit(options.admission))

  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: 'A personal access token: `sps_` followed by 43 letters and digits.',
  })
  registerResponseHeaders(app.openAPIRegistry)
  registerWebhookDocs(app.openAPIRegistry)
  // The reference is public: registered before the token check of /v1.
  app.doc31(OPENAPI_PATH, (c) => openApiDocument(options.settings.publicUrl ?? new URL(c.req.url).origin))
  // Swagger UI from our own bundle (swagger-ui-dist): nothing on the page comes from another origin.
  app.route('/docs', docsSite(OPENAPI_PATH, 'Social Publishing API reference'))
  app.get('/', (c) => c.redirect('/docs'))
  // Browsers ask every origin for an icon: the project's (src/dashboard/assets/favicon.ts), cached a day.
  app.get('/favicon.ico', (c) =>
    c.body(faviconIco(), 200, { 'Content-Type': 'image/x-icon', 'Cache-Control': 'public, max-age=86400' }),
  )
  // Outside /v1 every site reads its bodies through its own input guard (src/http/input-guard.ts): capped first.
  for (const site of ['/sandbox/*', '/connect/*', '/oauth/*', '/oauth2/*'])
    app.use(site, limitBody(options.settings.maxBodyBytes))
  // The simulated network's own public pages (permalinks of SANDBOX posts): outside /v1, no token.
  app.route('/sandbox', sandboxSite())
  // Hosted connect: pages for account owners, keyed by the link's own token, outside /v1.
  app.route('/connect', connectSite())
  app.route('/oauth', oauthCallbackSite())
  // Client review links: pages keyed by the link's signed token, no session (src/dashboard/review/).
  app.use('/review/*', limitBody(options.settings.maxBodyBytes))
  app.route('/review', createReviewSite())
  // The web dashboard: its own session cookie, CSRF tokens and CSP, over the same services as /v1.
  app.use('/app/*', limitBody(options.settings.maxBodyBytes))
  app.route('/app', createDashboard())
  // Agents sign in through OAuth 2.1 (the MCP authorization specification): discovery, registration, tokens
  // (the consent page is the dashboard's, behind its sign-in).
  app.route('/.well-known', wellKnownSite())
  app.route('/oauth2', agentOAuthSite())

  // The MCP endpoint for agents: the same token check and body guards as /v1, over the same services. Stateless,
  // so only POST: GET (an event stream) and DELETE (ending a session) are 405 with `Allow: POST` (app.notFound).
  app.use('/mcp', requireToken({ agentTokens: true, resourceMetadataUrl: resourceMetadataUrlOf }))
  app.use('/mcp', limitBody(options.settings.maxBodyBytes))
  app.use('/mcp', requireJsonBody())
  app.post('/mcp', mcpEndpointOnFirstCall())

  app.use('/v1/*', requireToken())
  app.use('/v1/*', limitBody(options.settings.maxBodyBytes))
  app.use('/v1/*', requireJsonBody())
  app.use('/v1/*', rejectUnstorableText())
  app.route('/v1', v1)

  // A known path asked with another method is 405, with the methods its registered routes take.
  let allowedFor: ((path: string) => string[]) | undefined
  app.notFound((c) => {
    allowedFor ??= allowedMethodsResolver(app.routes)
    const allowed = allowedFor(c.req.path)
    if (allowed.length === 0)
      return errorResponse(c, new AppError('not_found', `No route ${c.req.method} ${c.req.path}.`))
    c.header('Allow', allowed.join(', '))
    return errorResponse(
      c,
      new AppError(
        'method_not_allowed',
        `${c.req.path} does not take ${c.req.method}; it takes ${allowed.join(', ')}.`,
      ),
    )
  })
  // The dashboard answers in pages what is thrown before its own handlers (the per-IP limit's 429).
  app.onError((err, c) => {
    if (isDashboardPath(c.req.path)) return dashboardErrorPage(c, err)
    return c.req.path.startsWith('/review/') ? reviewErrorPage(err, c) : errorResponse(c, err)
  })
  return app
}

/** The dashboard's addresses (`/app` and below), whose errors are pages. */
const isDashboardPath = (path: string) => path === '/app' || path.startsWith('/app/')
