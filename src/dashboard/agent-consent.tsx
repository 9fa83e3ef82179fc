/**
 * The consent page of an agent's OAuth authorization (`/app/oauth/authorize`, the authorization
 * endpoint of docs/agents.md): behind the dashboard's sign-in, it names the client and where it will
 * be answered, and lets the user pick a workspace they own or administer. The decision goes back to
 * the client's redirect URI; a request that cannot be answered safely is a page here.
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
  UnsafeAuthorizationRequest,
} from '../services/agent-oauth/authorize'
import { listUserWorkspaces } from '../services/memberships'
import { resolveSession } from '../services/sessions'
import { Csrf, PublicPage } from './pages'
import { contentSecurityPolicy, csrfMatches, formFields, sessionToken } from './session'

async function signedIn(c: Context<AppEnv>) {
  const { db, clock } = c.var.deps
  const token = sessionToken(c)
  const session = token ? await resolveSession(db, token, clock.now()) : null
  if (!session) return null
  const managed = (await listUserWorkspaces(db, session.userId)).filter((w) => canManage(w.role))
  return { session, managed }
}

function ConsentPage(props: {
  clientName: string
  redirectHost: string
  userName: string
  requestToken: string
  csrf: string
  workspaces: Array<{ workspaceId: string; name: string }>
}) {
  return (
    <PublicPage title={`Allow ${props.clientName}?`}>
      <p>
        Signed in as {props.userName}. <b>{props.clientName}</b> will be answered at <b>{props.redirectHost}</b>.
      </p>
      <p>
        It will be able to do what an API token can do through the MCP endpoint: read and write the posts, media,
        accounts, queue slots and analytics of the workspace you choose, until you revoke it on the API tokens page.
      </p>
      <form method="post" action="/app/oauth/authorize">
        <Csrf token={props.csrf} />
        <input type="hidden" name="request" value={props.requestToken} />
        {props.workspaces.length === 0 ? (
          <p class="alert" role="alert">
            You manage no workspace: only owners and admins can allow an agent.
          </p>
        ) : (
          <>
            <label for="f-workspace">Workspace</label>
            <select id="f-workspace" name="workspace">
              {props.workspaces.map((w) => (
                <option value={w.workspaceId}>{w.name}</option>
              ))}
            </select>
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
        />,
      )
    } catch (err) {
      if (err instanceof UnsafeAuthorizationRequest) return refusedPage(c, err.message, 400)
      if (!(err instanceof AuthorizationRefusal)) throw err
      const params = { error: err.code, error_description: err.message, state: err.state, iss: baseUrlOf(c) }
      return c.redirect(clientRedirect(err.redirectUri, params), 303)
    }
  })

  app.post('/oauth/authorize', async (c) => {
    const user = await signedIn(c)
    const fields = await formFields(c)
    const expired = 'This authorization has expired or was decided already. Start again from the application.'
    if (!user || !csrfMatches(user.session.csrfToken, fields._csrf)) return refusedPage(c, expired, 400)
    const allow = fields.decision === 'allow'
    if (allow && !user.managed.some((w) => w.workspaceId === fields.workspace))
      return refusedPage(c, 'No workspace you manage has that id.', 404)
    const redirect = await decideAgentAuthorizationRequest(c.var.deps, {
      requestToken: fields.request ?? '',
      userId: user.session.userId,
      workspaceId: allow ? fields.workspace! : null,
      issuer: baseUrlOf(c),
    })
    if (!redirect) return refusedPage(c, expired, 400)
    return c.redirect(redirect, 303)
  })
}
