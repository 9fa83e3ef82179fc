/**
 * The authorization server agents sign in through: its discovery documents (`/.well-known/*`),
 * registration, token and revocation endpoints (`/oauth2/*`); the consent page is the dashboard's
 * (`/app/oauth/authorize`). Outside `/v1`, not part of the OpenAPI description (the OAuth
 * specifications describe them), answering OAuth's own error body. docs/agents.md describes the flow.
 */
import { type Context, Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { cors } from 'hono/cors'
import { AgentOAuthError } from '../../domain/agent-oauth'
import type { AppEnv } from '../../http/context'
import { describeProblem, guardInput } from '../../http/input-guard'
import { AppError } from '../../domain/errors'
import { registerAgentClient } from '../../services/agent-oauth/clients'
import { exchangeAgentCode, refreshAgentToken, revokeAgentToken } from '../../services/agent-oauth/tokens'
import { authorizationServerMetadata, protectedResourceMetadata } from './metadata'

const FORM_LIMIT = bodyLimit({ maxSize: 16 * 1024 })
/** Discovery, registration, token and revocation are called by browser-based clients too; none uses cookies. */
const OPEN_CORS = cors({ origin: '*', allowMethods: ['GET', 'POST', 'OPTIONS'], maxAge: 600 })

const field = (form: Record<string, unknown>, name: string): string | undefined =>
  typeof form[name] === 'string' && form[name] !== '' ? (form[name] as string) : undefined

function oauthError(c: Context<AppEnv>, err: unknown) {
  if (!(err instanceof AgentOAuthError)) throw err
  c.header('Cache-Control', 'no-store')
  return c.json({ error: err.code, error_description: err.message }, err.code === 'invalid_client' ? 401 : 400)
}

/** `/.well-known/oauth-protected-resource[/mcp]` and `/.well-known/oauth-authorization-server`. */
export function wellKnownSite(): Hono<AppEnv> {
  const site = new Hono<AppEnv>()
  site.use('*', OPEN_CORS)
  site.get('/oauth-protected-resource', (c) => c.json(protectedResourceMetadata(c)))
  site.get('/oauth-protected-resource/mcp', (c) => c.json(protectedResourceMetadata(c)))
  site.get('/oauth-authorization-server', (c) => c.json(authorizationServerMetadata(c)))
  return site
}

/**
 * OAuth's own error for what the guard refuses (RFC 6749 5.2; RFC 7591 3.2.2 for registration's
 * metadata): text the database cannot store, a form body that cannot be read.
 */
const guardOAuthInput = () =>
  guardInput({
    notFound: () => {
      throw new AppError('not_found', 'No such endpoint.')
    },
    refuse: (c, problem) => {
      const code = c.req.path.endsWith('/register') ? 'invalid_client_metadata' : 'invalid_request'
      return oauthError(c, new AgentOAuthError(code, describeProblem(problem)))
    },
  })

export function agentOAuthSite(): Hono<AppEnv> {
  const site = new Hono<AppEnv>()
  site.use('*', guardOAuthInput())
  site.use('/register', OPEN_CORS)
  site.use('/token', OPEN_CORS)
  site.use('/revoke', OPEN_CORS)

  site.post('/register', bodyLimit({ maxSize: 64 * 1024 }), async (c) => {
    const body = await c.req.json().catch(() => null)
    if (!body || typeof body !== 'object' || Array.isArray(body))
      return oauthError(c, new AgentOAuthError('invalid_client_metadata', 'The body must be a JSON object.'))
    try {
      return c.json(await registerAgentClient(c.var.deps.db, body as Record<string, unknown>), 201)
    } catch (err) {
      return oauthError(c, err)
    }
  })

  site.post('/token', FORM_LIMIT, async (c) => {
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>)
    c.header('Cache-Control', 'no-store')
    try {
      const grantType = field(form, 'grant_type')
      if (grantType === 'authorization_code')
        return c.json(
          await exchangeAgentCode(c.var.deps, {
            clientId: field(form, 'client_id'),
            code: field(form, 'code'),
            codeVerifier: field(form, 'code_verifier'),
            redirectUri: field(form, 'redirect_uri'),
            resource: field(form, 'resource'),
          }),
        )
      if (grantType === 'refresh_token')
        return c.json(
          await refreshAgentToken(c.var.deps, {
            clientId: field(form, 'client_id'),
            refreshToken: field(form, 'refresh_token'),
          }),
        )
      throw new AgentOAuthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token.')
    } catch (err) {
      return oauthError(c, err)
    }
  })

  site.post('/revoke', FORM_LIMIT, async (c) => {
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>)
    try {
      await revokeAgentToken(c.var.deps, { clientId: field(form, 'client_id'), token: field(form, 'token') })
      return c.body(null, 200)
    } catch (err) {
      return oauthError(c, err)
    }
  })
  return site
}
