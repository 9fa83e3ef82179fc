/**
 * API tokens of the workspace: create (the secret is shown once), list with last use and, for an
 * agent's grant, the workspaces it covers (listed and revocable in each), revoke. Owners and admins only.
 */
import type { Context, Hono } from 'hono'
import { canManage } from '../../domain/people'
import { createToken, listTokens, revokeToken } from '../../services/tokens'
import type { DashboardEnv } from '../env'
import { workspacePage } from '../env'
import { Csrf, Field, Message } from '../pages'
import { formFields } from '../session'
import { permitted, refuseUnlessManager } from '../workspace'
import { SettingsPage } from './frame'

const when = (iso: string | null) => (iso ? `${iso.slice(0, 16).replace('T', ' ')} UTC` : 'never')

async function render(
  c: Context<DashboardEnv>,
  state: { secret?: { name: string; token: string }; notice?: string; error?: string } = {},
  status: 200 | 400 | 404 = 200,
) {
  const { member, csrfToken, deps } = c.var
  const manager = canManage(member.role)
  const tokens = manager ? await listTokens(deps.db, member.workspaceId) : []
  return c.html(
    <SettingsPage title="API tokens" section="/tokens" member={member} csrfToken={csrfToken}>
      <Message kind="notice" text={state.notice} />
      <Message kind="error" text={state.error} />
      {state.secret ? (
        <section class="notice" aria-labelledby="new-token">
          <h2 id="new-token">Token “{state.secret.name}” created</h2>
          <p>Copy it now: it is shown only this once.</p>
          <p class="secret" data-testid="new-token">
            {state.secret.token}
          </p>
        </section>
      ) : null}
      {manager ? (
        <>
          <form method="post" action={workspacePage(member, '/settings/tokens')}>
            <Csrf token={csrfToken} />
            <Field name="name" label="Token name" />
            <button type="submit">Create token</button>
          </form>
          <table class="cards-on-phone">
            <caption>Tokens</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Workspaces</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {tokens.map((t) => (
                <tr>
                  <td data-label="Name">{t.name}</td>
                  <td data-label="Workspaces">
                    {t.grantWorkspaces ? `Agent grant: ${t.grantWorkspaces.join(', ')}` : 'This one'}
                  </td>
                  <td data-label="Created">{when(t.createdAt)}</td>
                  <td data-label="Last used">{when(t.lastUsedAt)}</td>
                  <td data-label="State">
                    {t.revokedAt ? (
                      `revoked ${when(t.revokedAt)}`
                    ) : (
                      <form
                        method="post"
                        action={workspacePage(member, `/settings/tokens/${t.id}/revoke`)}
                        class="inline"
                      >
                        <Csrf token={csrfToken} />
                        <button type="submit" class="danger" aria-label={`Revoke ${t.name}`}>
                          Revoke
                        </button>
                      </form>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
    </SettingsPage>,
    status,
  )
}

/** Registers `/settings/tokens` (GET, POST) and `/settings/tokens/{id}/revoke` (POST). */
export function registerTokenPages(app: Hono<DashboardEnv>): void {
  app.get('/settings/tokens', permitted('write'), (c) => render(c))

  app.post('/settings/tokens', async (c) => {
    const refused = refuseUnlessManager(c)
    if (refused) return refused
    const name = ((await formFields(c)).name ?? '').trim()
    if (name.length < 1 || name.length > 100)
      return render(c, { error: 'Give the token a name (at most 100 characters).' }, 400)
    const created = await createToken(c.var.deps.db, c.var.member.workspaceId, name)
    return render(c, { secret: { name: created.name, token: created.token } })
  })

  app.post('/settings/tokens/:tokenId/revoke', async (c) => {
    const refused = refuseUnlessManager(c)
    if (refused) return refused
    const { deps, member } = c.var
    const revoked = await revokeToken(deps.db, c.req.param('tokenId'), deps.clock.now(), member.workspaceId)
    if (!revoked) return render(c, { error: 'No live token with that id in this workspace.' }, 404)
    return render(c, { notice: 'Token revoked: requests with it are refused from now on.' })
  })
}
