/**
 * The authorization server agents sign in through (`/oauth2/*`) and its discovery documents
 * (`/.well-known/*`): outside `/v1`, not part of the OpenAPI description (the OAuth specifications
 * describe them), answering OAuth's own error body. docs/agents.md describes the flow.
 */
import { type Context, Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { cors } from 'hono/cors'
import { AgentOAuthError, redirectTarget } from '../../domain/agent-oauth'
import type { AppEnv } from '../../http/context'
import {
  AuthorizationRefusal,
  type AuthorizationParams,
  clientRedirect,
  decideAgentAuthorizationRequest,
  openAgentAuthorization,
  UnsafeAuthorizationRequest,
} from '../../services/agent-oauth/authorize'
import { registerAgentClient } from '../../services/agent-oauth/clients'
import { exchangeAgentCode, refreshAgentToken, revokeAgentToken } from '../../services/agent-oauth/tokens'
import { sendPage } from '../connect/render'
import { authorizationServerMetadata, baseUrlOf, mcpResourceOf, protectedResourceMetadata } from './metadata'
import { AGENT_FOOTER, agentErrorPage, consentPage } from './render'

/** The signed-in user of the dashboard, with the workspaces they belong to. */
export interface SignedInUser {
  userId: string
  name: string
  workspaces: Array<{ id: string; name: string; role: 'owner' | 'admin' | 'member' }>
}

/** How the consent page finds the signed-in user (the dashboard's session), and where to sign in. */
export interface AgentSignIn {
  signedInUser: (c: Context<AppEnv>) => Promise<SignedInUser | null>
  signInUrl: (next: string) => string
}

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

const MANAGING_ROLES = new Set(['owner', 'admin'])

export function agentOAuthSite(signIn: AgentSignIn): Hono<AppEnv> {
  const site = new Hono<AppEnv>()
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

  site.get('/authorize', async (c) => {
    const user = await signIn.signedInUser(c)
    const url = new URL(c.req.url)
    if (!user) return c.redirect(signIn.signInUrl(`${url.pathname}${url.search}`), 302)
    try {
      const pending = await openAgentAuthorization(c.var.deps, c.req.query() as AuthorizationParams, {
        userId: user.userId,
        mcpResource: mcpResourceOf(c),
      })
      const workspaces = user.workspaces.filter((w) => MANAGING_ROLES.has(w.role))
      const page = consentPage({
        clientName: pending.clientName,
        redirectHost: new URL(pending.redirectUri).host || pending.redirectUri,
        userName: user.name,
        requestToken: pending.requestToken,
        workspaces,
      })
      return sendPage(c, 200, 'Allow an agent', page, [redirectTarget(pending.redirectUri)], AGENT_FOOTER)
    } catch (err) {
      if (err instanceof UnsafeAuthorizationRequest)
        return sendPage(c, 400, 'Not allowed', agentErrorPage(err.message), [], AGENT_FOOTER)
      if (err instanceof AuthorizationRefusal)
        return c.redirect(
          clientRedirect(err.redirectUri, {
            error: err.code,
            error_description: err.message,
            state: err.state,
            iss: baseUrlOf(c),
          }),
          302,
        )
      throw err
    }
  })

  site.post('/authorize', FORM_LIMIT, async (c) => {
    const user = await signIn.signedInUser(c)
    const form = await c.req.parseBody()
    const requestToken = field(form, 'request') ?? ''
    const expired = 'This authorization has expired or was decided already. Start again from the application.'
    if (!user) return sendPage(c, 400, 'Not allowed', agentErrorPage(expired), [], AGENT_FOOTER)
    const allow = field(form, 'decision') === 'allow'
    const workspaceId = field(form, 'workspace')
    if (allow && !user.workspaces.some((w) => w.id === workspaceId && MANAGING_ROLES.has(w.role)))
      return sendPage(c, 404, 'Not allowed', agentErrorPage('No workspace of yours has that id.'), [], AGENT_FOOTER)
    const redirect = await decideAgentAuthorizationRequest(c.var.deps, {
      requestToken,
      userId: user.userId,
      workspaceId: allow ? workspaceId! : null,
      issuer: baseUrlOf(c),
    })
    if (!redirect) return sendPage(c, 400, 'Not allowed', agentErrorPage(expired), [], AGENT_FOOTER)
    return c.redirect(redirect, 303)
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
