/**
 * API tokens of the workspace: create one for a role and, for a member's or a reviewer's, some groups
 * (the secret is shown once); list with role, groups, last use and, for an agent's grant, the
 * workspaces it covers (listed and revocable in each); revoke. Owners and admins only.
 */
import type { Context, Hono } from 'hono'
import { canManage, isMemberRole, MEMBER_ROLES, type MemberRole } from '../../domain/people'
import { listGroups } from '../../services/groups/groups'
import { createToken, listTokens, revokeToken } from '../../services/tokens'
import type { DashboardEnv } from '../env'
import { workspacePage } from '../env'
import { Csrf, Field, Message } from '../pages'
import { TableScroll } from '../ui'
import { refuseUnlessManager } from '../workspace'
import { dashboardCaller } from '../caller'
import { refuseReviewer, SettingsPage } from './frame'
import {
  ActionButton,
  allValues,
  Dot,
  GroupPicker,
  ListTable,
  type PickGroup,
  ROLE_WORDS,
  Setting,
  whenUtc,
} from './parts'

/** The groups a token reaches, as chips; every account when it is not limited. */
function TokenScope(props: { role: MemberRole; groupIds: readonly string[] | null; groups: Map<string, PickGroup> }) {
  if (!props.groupIds) return <span class="muted">All accounts</span>
  return (
    <span class="token-role">
      {props.groupIds.map((id) => {
        const g = props.groups.get(id)
        return (
          <span class="chip chip-group">
            <Dot color={g?.color ?? null} />
            {g?.name ?? 'deleted group'}
          </span>
        )
      })}
    </span>
  )
}

async function render(
  c: Context<DashboardEnv>,
  state: { secret?: { name: string; token: string }; notice?: string; error?: string } = {},
  status: 200 | 400 | 404 = 200,
) {
  const { member, csrfToken, deps } = c.var
  const manager = canManage(member.role)
  const [tokens, groups] = await Promise.all([
    manager ? listTokens(deps.db, member.workspaceId) : Promise.resolve([]),
    listGroups(deps.db, dashboardCaller(c)),
  ])
  const groupsById = new Map<string, PickGroup>(groups.map((g) => [g.id, g]))
  const roles = MEMBER_ROLES.filter((r) => r !== 'owner' || member.role === 'owner')
  return c.html(
    <SettingsPage
      title="API tokens"
      section="/tokens"
      member={member}
      csrfToken={csrfToken}
      description="Keys for scripts and tools that call the API: each acts with its role, and only on its groups when limited."
    >
      <Message kind="notice" text={state.notice} />
      <Message kind="error" text={state.error} />
      {state.secret ? (
        <section class="notice" aria-labelledby="new-token">
          <div>
            <h2 id="new-token">Token “{state.secret.name}” created</h2>
            <p>Copy it now: it is shown only this once.</p>
            <p class="secret" data-testid="new-token">
              {state.secret.token}
            </p>
          </div>
        </section>
      ) : null}
      {manager ? (
        <>
          <form
            method="post"
            action={workspacePage(member, '/settings/tokens')}
            class="setting"
            aria-labelledby="new-token-title"
          >
            <div class="setting-head">
              <h2 id="new-token-title">New token</h2>
              <p>Give it the least it needs: a reviewer's token can approve but never publish.</p>
            </div>
            <div class="setting-body">
              <Csrf token={csrfToken} />
              <div class="form-grid">
                <div>
                  <Field name="name" label="Token name" hint="Where it is used, e.g. “CI” or “Client portal”." />
                </div>
                <div>
                  <label for="token-role">Role</label>
                  <select id="token-role" name="role">
                    {roles.map((r) => (
                      <option value={r} selected={r === (member.role === 'owner' ? 'owner' : 'admin')}>
                        {ROLE_WORDS[r].name}: {ROLE_WORDS[r].line}
                      </option>
                    ))}
                  </select>
                </div>
              </div>
              {groups.length ? (
                <details class="limit">
                  <summary>Limit to groups (members' and reviewers' tokens)</summary>
                  <GroupPicker
                    groups={groups}
                    chosen={[]}
                    legend="Groups this token reaches (none chosen: every account)"
                  />
                </details>
              ) : null}
            </div>
            <div class="setting-foot">
              <button type="submit">Create token</button>
            </div>
          </form>
          <TableScroll label="Tokens">
            <ListTable caption="Tokens" columns={['Name', 'Role', 'Reaches', 'Created', 'Last used', 'State']}>
              {tokens.map((t) => (
                <tr>
                  <td data-label="Name">{t.name}</td>
                  <td data-label="Role">
                    <span class="badge badge-role">{ROLE_WORDS[t.role ?? 'owner'].name}</span>
                  </td>
                  <td data-label="Reaches">
                    {t.grantWorkspaces ? (
                      `Agent grant: ${t.grantWorkspaces.join(', ')}`
                    ) : (
                      <TokenScope role={t.role ?? 'owner'} groupIds={t.groupIds ?? null} groups={groupsById} />
                    )}
                  </td>
                  <td data-label="Created">{whenUtc(t.createdAt)}</td>
                  <td data-label="Last used">{whenUtc(t.lastUsedAt)}</td>
                  <td data-label="State">
                    {t.revokedAt ? (
                      `revoked ${whenUtc(t.revokedAt)}`
                    ) : (
                      <ActionButton
                        action={workspacePage(member, `/settings/tokens/${t.id}/revoke`)}
                        csrfToken={csrfToken}
                        class="danger btn-small"
                        label={`Revoke ${t.name}`}
                      >
                        Revoke
                      </ActionButton>
                    )}
                  </td>
                </tr>
              ))}
            </ListTable>
          </TableScroll>
        </>
      ) : (
        <Setting title="Tokens">
          <p class="muted">Owners and admins create and revoke the workspace's tokens.</p>
        </Setting>
      )}
    </SettingsPage>,
    status,
  )
}

/** Registers `/settings/tokens` (GET, POST) and `/settings/tokens/{id}/revoke` (POST). */
export function registerTokenPages(app: Hono<DashboardEnv>): void {
  app.get('/settings/tokens', (c) => refuseReviewer(c) ?? render(c))

  app.post('/settings/tokens', async (c) => {
    const refused = refuseUnlessManager(c)
    if (refused) return refused
    const body = await c.req.parseBody({ all: true })
    const { deps, member } = c.var
    const name = (typeof body.name === 'string' ? body.name : '').trim()
    if (name.length < 1 || name.length > 100)
      return render(c, { error: 'Give the token a name (at most 100 characters).' }, 400)
    const chosen = typeof body.role === 'string' ? body.role : member.role === 'owner' ? 'owner' : 'admin'
    if (!isMemberRole(chosen) || (chosen === 'owner' && member.role !== 'owner'))
      return render(c, { error: 'Choose a role you may give.' }, 400)
    const limited = chosen === 'member' || chosen === 'reviewer'
    const groupIds = limited ? allValues(body, 'groupIds') : []
    const known = new Set((await listGroups(deps.db, dashboardCaller(c))).map((g) => g.id))
    if (groupIds.some((id) => !known.has(id))) return render(c, { error: 'Choose groups of this workspace.' }, 400)
    const created = await createToken(deps.db, dashboardCaller(c), name, {
      role: chosen,
      groupIds: groupIds.length ? groupIds : null,
      userId: member.userId,
    })
    return render(c, { secret: { name: created.name, token: created.token } })
  })

  app.post('/settings/tokens/:tokenId/revoke', async (c) => {
    const refused = refuseUnlessManager(c)
    if (refused) return refused
    const { deps } = c.var
    const revoked = await revokeToken(deps.db, c.req.param('tokenId'), deps.clock.now(), dashboardCaller(c))
    if (!revoked) return render(c, { error: 'No live token with that id in this workspace.' }, 404)
    return render(c, { notice: 'Token revoked: requests with it are refused from now on.' })
  })
}
