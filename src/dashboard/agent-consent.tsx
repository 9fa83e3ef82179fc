/**
 * The consent page of an agent's OAuth authorization (`/app/oauth/authorize`, the authorization
 * endpoint of docs/agents.md): behind the dashboard's sign-in, it names the client and where it will
 * be answered, and lets the user tick one or more workspaces they own or administer (the one they
 * were last in is listed first and ticked; the first ticked is the grant's default). The decision
 * goes back to the client's redirect URI; a request that cannot be answered safely is a page here.
 */
import type { Context, Hono } from 'hono'
import { redirectTarget } from '../domain/agent-oauth'
import { canManage } from '../domain/people'
import { baseUrlOf } from '../http/base-url'
import type { AppEnv } from '../http/context'
import {
  type AuthorizationParams,
  AuthorizationRefusal,
  clientRedirect,
  decideAgentAuthorizationRequest,
  openAgentAuthorization,
  pendingAgentAuthorization,
  UnsafeAuthorizationRequest,
} from '../services/agent-oauth/authorize'
import { listUserWorkspaces } from '../services/people/memberships'
import { resolveSession } from '../services/people/sessions'
import { Csrf, Message, PublicPage } from './pages'
import { contentSecurityPolicy, csrfMatches, sessionToken } from './session'

async function signedIn(c: Context<AppEnv>) {
  const { db, clock } = c.var.deps
  const token = sessionToken(c)
  const session = token ? await resolveSession(db, token, clock.now()) : null
  if (!session) return null
  const managed = (await listUserWorkspaces(db, session.userId)).filter((w) => canManage(w.role))
  // The workspace the user was last in comes first: ticked already, and the default if kept.
  const current = managed.findIndex((w) => w.workspaceId === session.lastWorkspaceId)
  if (current > 0) managed.unshift(...managed.splice(current, 1))
  return { session, managed }
}

type SignedIn = NonNullable<Awaited<ReturnType<typeof signedIn>>>

function ConsentPage(props: {
  clientName: string
  redirectHost: string
  userName: string
  requestToken: string
  csrf: string
  workspaces: Array<{ workspaceId: string; name: string }>
  error?: string
}) {
  return (
    <PublicPage title={`Allow ${props.clientName}?`}>
      <p>
        Signed in as {props.userName}. <b>{props.clientName}</b> will be answered at <b>{props.redirectHost}</b>.
      </p>
      <p>
        It will be able to do what an API token can do through the MCP endpoint: read and write the posts, media,
        accounts, queue slots and analytics of the workspaces you tick, while you are a member there, until you revoke
        it on the API tokens page of any of them.
      </p>
      <Message kind="error" text={props.error} />
      <form method="post" action="/app/oauth/authorize">
        <Csrf token={props.csrf} />
        <input type="hidden" name="request" value={props.requestToken} />
        {props.workspaces.length === 0 ? (
          <p class="alert" role="alert">
            You manage no workspace: only owners and admins can allow an agent.
          </p>
        ) : (
          <>
            <fieldset>
              <legend>Workspaces</legend>
              <p class="hint">The first one ticked is the default.</p>
              {props.workspaces.map((w, i) => (
                <label class="inline-check">
                  <input type="checkbox" name="workspace" value={w.workspaceId} checked={i === 0} /> {w.name}
                </label>
              ))}
            </fieldset>
            <button type="submit" name="decision" value="allow">
              Allow
            </button>
          </>
        )}
        <button type="submit" name="decision" value="deny" class="secondary">
          {props.workspaces.length === 0 ? 'Back to the application' : 'Deny'}
        </button>
      </form>
    </PublicPage>
  )
}

function consentPage(
  c: Context<AppEnv>,
  user: SignedIn,
  pending: { requestToken: string; clientName: string; redirectUri: string },
  error?: string,
) {
  // The decision's redirect leaves for the client: the form may end up there (CSP form-action).
  c.header('Content-Security-Policy', contentSecurityPolicy({ formTargets: [redirectTarget(pending.redirectUri)] }))
  return c.html(
    <ConsentPage
      clientName={pending.clientName}
      redirectHost={new URL(pending.redirectUri).host || pending.redirectUri}
      userName={user.session.name}
      requestToken={pending.requestToken}
      csrf={user.session.csrfToken}
      workspaces={user.managed}
      error={error}
    />,
    error ? 400 : 200,
  )
}

const refusedPage = (c: Context<AppEnv>, message: string, status: 400 | 404) =>
  c.html(
    <PublicPage title="The application cannot be allowed">
      <p class="alert" role="alert">
        {message}
      </p>
    </PublicPage>,
    status,
  )

export function registerAgentConsent(app: Hono<AppEnv>): void {
  app.get('/oauth/authorize', async (c) => {
    const user = await signedIn(c)
    const url = new URL(c.req.url)
    if (!user) return c.redirect(`/app/sign-in?next=${encodeURIComponent(`${url.pathname}${url.search}`)}`, 303)
    try {
      const pending = await openAgentAuthorization(c.var.deps, c.req.query() as AuthorizationParams, {
        userId: user.session.userId,
        mcpResource: `${baseUrlOf(c)}/mcp`,
      })
      return consentPage(c, user, pending)
    } catch (err) {
      if (err instanceof UnsafeAuthorizationRequest) return refusedPage(c, err.message, 400)
      if (!(err instanceof AuthorizationRefusal)) throw err
      const params = { error: err.code, error_description: err.message, state: err.state, iss: baseUrlOf(c) }
      return c.redirect(clientRedirect(err.redirectUri, params), 303)
    }
  })

  app.post('/oauth/authorize', async (c) => {
    const user = await signedIn(c)
    const body = await c.req.parseBody({ all: true })
    const text = (name: string) => (typeof body[name] === 'string' ? (body[name] as string) : '')
    const expired = 'This authorization has expired or was decided already. Start again from the application.'
    if (!user || !csrfMatches(user.session.csrfToken, text('_csrf'))) return refusedPage(c, expired, 400)
    const allow = text('decision') === 'allow'
    const ticked = ([] as unknown[]).concat(body.workspace ?? []).filter((v): v is string => typeof v === 'string')
    if (allow && ticked.some((id) => !user.managed.some((w) => w.workspaceId === id)))
      return refusedPage(c, 'No workspace you manage has that id.', 404)
    if (allow && ticked.length === 0) {
      const pending = await pendingAgentAuthorization(c.var.deps, text('request'), user.session.userId)
      if (!pending) return refusedPage(c, expired, 400)
      const again = {
        requestToken: text('request'),
        clientName: pending.clientName,
        redirectUri: pending.authorization.redirectUri,
      }
      return consentPage(c, user, again, 'Tick at least one workspace the agent may work in, or deny.')
    }
    const redirect = await decideAgentAuthorizationRequest(c.var.deps, {
      requestToken: text('request'),
      userId: user.session.userId,
      workspaceIds: allow ? ticked : [],
      issuer: baseUrlOf(c),
    })
    if (!redirect) return refusedPage(c, expired, 400)
    return c.redirect(redirect, 303)
  })
}
