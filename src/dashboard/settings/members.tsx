/** Members and invitations: invite by link (shown once to the inviter), withdraw, change a role, remove a member. */
import type { Context, Hono } from 'hono'
import { AppError } from '../../domain/errors'
import { canManage, isMemberRole, MEMBER_ROLES } from '../../domain/people'
import { createInvitation, listInvitations, revokeInvitation } from '../../services/invitations'
import { changeMemberRole, listMembers, removeMember } from '../../services/memberships'
import type { DashboardEnv } from '../env'
import { workspacePage } from '../env'
import { Csrf, Message } from '../pages'
import { formFields } from '../session'
import { permitted, refuseUnlessManager } from '../workspace'
import { SettingsPage } from './frame'

function RoleSelect(props: { id: string; value?: string; allowOwner: boolean }) {
  return (
    <select id={props.id} name="role">
      {MEMBER_ROLES.filter((r) => r !== 'owner' || props.allowOwner).map((r) => (
        <option value={r} selected={r === (props.value ?? 'member')}>
          {r}
        </option>
      ))}
    </select>
  )
}

async function render(
  c: Context<DashboardEnv>,
  state: { link?: string; notice?: string; error?: string } = {},
  status: 200 | 400 | 403 | 404 = 200,
) {
  const { member, csrfToken, deps } = c.var
  const manager = canManage(member.role)
  const owner = member.role === 'owner'
  const members = await listMembers(deps.db, member.workspaceId)
  const invitations = manager ? await listInvitations(deps.db, member.workspaceId, deps.clock.now()) : []
  const path = (p: string) => workspacePage(member, `/settings/members${p}`)
  return c.html(
    <SettingsPage title="Members and invitations" section="/members" member={member} csrfToken={csrfToken}>
      <Message kind="notice" text={state.notice} />
      <Message kind="error" text={state.error} />
      {state.link ? (
        <section class="notice" aria-labelledby="invite-link">
          <h2 id="invite-link">Invitation link</h2>
          <p>Send this link to the person you invite. It works once, for 7 days, and is shown only now.</p>
          <p class="secret" data-testid="invitation-link">
            {state.link}
          </p>
        </section>
      ) : null}
      <table class="cards-on-phone">
        <caption>Members</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Email</th>
            <th scope="col">Role</th>
            {manager ? <th scope="col">Manage</th> : null}
          </tr>
        </thead>
        <tbody>
          {members.map((m) => (
            <tr>
              <td data-label="Name">{m.name}</td>
              <td data-label="Email">{m.email}</td>
              <td data-label="Role">{m.role}</td>
              {manager && (owner || m.role !== 'owner') ? (
                <td>
                  <div class="row-actions">
                    <form method="post" action={path(`/${m.userId}/role`)} class="row-form">
                      <Csrf token={csrfToken} />
                      <label for={`role-${m.userId}`} class="visually-hidden">
                        Role of {m.name}
                      </label>
                      <RoleSelect id={`role-${m.userId}`} value={m.role} allowOwner={owner} />
                      <button type="submit" class="secondary">
                        Change role
                      </button>
                    </form>
                    <form method="post" action={path(`/${m.userId}/remove`)} class="row-form">
                      <Csrf token={csrfToken} />
                      <button type="submit" class="danger" aria-label={`Remove ${m.name}`}>
                        Remove
                      </button>
                    </form>
                  </div>
                </td>
              ) : manager ? (
                <td />
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
      {manager ? (
        <>
          <h2>Invite someone</h2>
          <form method="post" action={workspacePage(member, '/settings/invitations')}>
            <Csrf token={csrfToken} />
            <label for="invite-role">Role</label>
            <RoleSelect id="invite-role" allowOwner={owner} />
            <button type="submit">Create invitation link</button>
          </form>
          <table class="cards-on-phone">
            <caption>Invitations</caption>
            <thead>
              <tr>
                <th scope="col">Role</th>
                <th scope="col">Created</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {invitations.map((i) => (
                <tr>
                  <td data-label="Role">{i.role}</td>
                  <td data-label="Created">{i.createdAt.slice(0, 16).replace('T', ' ')} UTC</td>
                  <td data-label="State">
                    {i.state}{' '}
                    {i.state === 'pending' ? (
                      <form
                        method="post"
                        action={workspacePage(member, `/settings/invitations/${i.id}/revoke`)}
                        class="inline"
                      >
                        <Csrf token={csrfToken} />
                        <button type="submit" class="secondary">
                          Withdraw
                        </button>
                      </form>
                    ) : null}
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

/** An AppError of a manage action as the page's message with its status; anything else is thrown on. */
function refusal(c: Context<DashboardEnv>, err: unknown) {
  if (!(err instanceof AppError)) throw err
  const status = err.code === 'plan_limit_reached' ? 403 : err.code === 'not_found' ? 404 : 400
  if (status === 400 && err.code !== 'invalid_request') throw err
  return render(c, { error: err.message }, status)
}

/** Registers the members page and its actions. */
export function registerMemberPages(app: Hono<DashboardEnv>): void {
  app.get('/settings/members', permitted('write'), (c) => render(c))

  app.post('/settings/invitations', async (c) => {
    const refused = refuseUnlessManager(c)
    if (refused) return refused
    const role = (await formFields(c)).role ?? 'member'
    const { deps, member } = c.var
    if (!isMemberRole(role) || (role === 'owner' && member.role !== 'owner'))
      return render(c, { error: 'Choose a role you may give.' }, 400)
    try {
      const created = await createInvitation(deps.db, {
        workspaceId: member.workspaceId,
        role,
        invitedBy: member.userId,
        now: deps.clock.now(),
      })
      const origin = deps.settings.publicUrl ?? new URL(c.req.url).origin
      return render(c, { link: `${origin}/app/invitations/${created.token}` })
    } catch (err) {
      return refusal(c, err)
    }
  })

  app.post('/settings/invitations/:invitationId/revoke', async (c) => {
    const refused = refuseUnlessManager(c)
    if (refused) return refused
    const { deps, member } = c.var
    try {
      await revokeInvitation(deps.db, member.workspaceId, c.req.param('invitationId'), deps.clock.now())
      return render(c, { notice: 'Invitation withdrawn.' })
    } catch (err) {
      return refusal(c, err)
    }
  })

  app.post('/settings/members/:userId/role', async (c) => {
    const refused = refuseUnlessManager(c)
    if (refused) return refused
    const role = (await formFields(c)).role ?? ''
    const { deps, member } = c.var
    if (!isMemberRole(role) || (role === 'owner' && member.role !== 'owner'))
      return render(c, { error: 'Choose a role you may give.' }, 400)
    const target = (await listMembers(deps.db, member.workspaceId)).find((m) => m.userId === c.req.param('userId'))
    if (target?.role === 'owner' && member.role !== 'owner')
      return render(c, { error: 'Only an owner can change an owner.' }, 403)
    try {
      await changeMemberRole(deps.db, member.workspaceId, c.req.param('userId'), role)
      return render(c, { notice: 'Role changed.' })
    } catch (err) {
      return refusal(c, err)
    }
  })

  app.post('/settings/members/:userId/remove', async (c) => {
    const refused = refuseUnlessManager(c)
    if (refused) return refused
    const { deps, member } = c.var
    const target = (await listMembers(deps.db, member.workspaceId)).find((m) => m.userId === c.req.param('userId'))
    if (target?.role === 'owner' && member.role !== 'owner')
      return render(c, { error: 'Only an owner can remove an owner.' }, 403)
    try {
      await removeMember(deps.db, member.workspaceId, c.req.param('userId'))
      if (c.req.param('userId') === member.userId) return c.redirect('/app', 303)
      return render(c, { notice: 'Member removed.' })
    } catch (err) {
      return refusal(c, err)
    }
  })
}
