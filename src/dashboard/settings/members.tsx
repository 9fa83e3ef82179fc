/**
 * Members and invitations: invite by link for a role (shown once to the inviter), withdraw, change a
 * role, limit a member or a reviewer to some groups, remove a member. Owners and admins manage; only an
 * owner gives or changes an owner, and the last owner stays one (the service refuses, the page says so).
 */
import type { Context, Hono } from 'hono'
import { AppError } from '../../domain/errors'
import { canManage, isMemberRole, MEMBER_ROLES, type MemberRole } from '../../domain/people'
import { listGroups } from '../../services/groups/groups'
import { createInvitation, listInvitations, revokeInvitation } from '../../services/people/invitations'
import {
  changeMemberRole,
  listMemberGroupIds,
  listMembers,
  removeMember,
  setMemberGroups,
} from '../../services/people/memberships'
import type { DashboardEnv } from '../env'
import { workspacePage } from '../env'
import { Csrf, Message } from '../pages'
import { formFields } from '../session'
import { refuseUnlessManager } from '../workspace'
import { dashboardCaller } from '../caller'
import { refuseReviewer, SettingsPage } from './frame'
import { allValues, ConfirmDelete, Dot, GroupPicker, type PickGroup, ROLE_WORDS, Setting } from './parts'

/** The role choice, each option with its one line. */
function RoleSelect(props: { id: string; value?: string; allowOwner: boolean; label?: string }) {
  return (
    <select id={props.id} name="role" aria-label={props.label}>
      {MEMBER_ROLES.filter((r) => r !== 'owner' || props.allowOwner).map((r) => (
        <option value={r} selected={r === (props.value ?? 'member')}>
          {ROLE_WORDS[r].name}: {ROLE_WORDS[r].line}
        </option>
      ))}
    </select>
  )
}

/** The four roles in a line each. */
const RoleLegend = () => (
  <ul class="roles" aria-label="Roles">
    {MEMBER_ROLES.map((r) => (
      <li>
        <strong>{ROLE_WORDS[r].name}</strong>
        {ROLE_WORDS[r].line}
      </li>
    ))}
  </ul>
)

const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]!.toUpperCase())
    .join('') || '?'

/** Who a member reaches: the whole workspace, or their groups as chips. */
function Scope(props: { role: MemberRole; groupIds: readonly string[] | null; groups: Map<string, PickGroup> }) {
  if (props.role === 'owner' || props.role === 'admin' || !props.groupIds)
    return <p class="member-scope">All accounts</p>
  const mine = props.groupIds.map((id) => props.groups.get(id)).filter((g): g is PickGroup => !!g)
  return (
    <p class="member-scope">
      Limited to{' '}
      {mine.length
        ? mine.map((g) => (
            <span class="chip chip-group">
              <Dot color={g.color} />
              {g.name}
            </span>
          ))
        : 'no group (sees nothing yet)'}
    </p>
  )
}

async function render(
  c: Context<DashboardEnv>,
  state: { link?: { url: string; role: MemberRole }; notice?: string; error?: string } = {},
  status: 200 | 400 | 403 | 404 = 200,
) {
  const { member, csrfToken, deps } = c.var
  const manager = canManage(member.role)
  const owner = member.role === 'owner'
  const [members, invitations, groups] = await Promise.all([
    listMembers(deps.db, member.workspaceId),
    manager ? listInvitations(deps.db, member.workspaceId, deps.clock.now()) : Promise.resolve([]),
    listGroups(deps.db, dashboardCaller(c)),
  ])
  const groupsById = new Map<string, PickGroup>(groups.map((g) => [g.id, g]))
  const limits = await Promise.all(
    members.map((m) => listMemberGroupIds(deps.db, { workspaceId: member.workspaceId, role: m.role }, m.userId)),
  )
  const path = (p: string) => workspacePage(member, `/settings/members${p}`)
  return c.html(
    <SettingsPage
      title="Members"
      section="/members"
      member={member}
      csrfToken={csrfToken}
      description="Who works in this workspace, what each may do, and which clients they see."
    >
      <Message kind="notice" text={state.notice} />
      <Message kind="error" text={state.error} />
      {state.link ? (
        <section class="notice" aria-labelledby="invite-link">
          <div>
            <h2 id="invite-link">Invitation link for a {ROLE_WORDS[state.link.role].name.toLowerCase()}</h2>
            <p>Send this link to the person you invite. It works once, for 7 days, and is shown only now.</p>
            <p class="secret" data-testid="invitation-link">
              {state.link.url}
            </p>
          </div>
        </section>
      ) : null}
      <ul class="member-list" aria-label="Members">
        {members.map((m, i) => {
          const groupIds = limits[i] ?? null
          const limited = m.role === 'member' || m.role === 'reviewer'
          const mayChange = manager && (owner || m.role !== 'owner')
          return (
            <li class="member-row" data-member={m.userId}>
              <div class="member-who">
                <span class="avatar" aria-hidden="true">
                  {initials(m.name)}
                </span>
                <span class="member-name">
                  <strong>{m.name}</strong>
                  <span>{m.email}</span>
                </span>
              </div>
              <div>
                <span class="badge badge-role">{ROLE_WORDS[m.role].name}</span>
                <Scope role={m.role} groupIds={groupIds} groups={groupsById} />
              </div>
              {mayChange ? (
                <div class="member-manage">
                  <form method="post" action={path(`/${m.userId}/role`)} class="row-form">
                    <Csrf token={csrfToken} />
                    <RoleSelect id={`role-${m.userId}`} value={m.role} allowOwner={owner} label={`Role of ${m.name}`} />
                    <button type="submit" class="secondary">
                      Change role
                    </button>
                  </form>
                  {limited && groups.length ? (
                    <details class="limit">
                      <summary>Limit to groups</summary>
                      <form method="post" action={path(`/${m.userId}/groups`)}>
                        <Csrf token={csrfToken} />
                        <GroupPicker
                          groups={groups}
                          chosen={groupIds ?? []}
                          legend={`Groups ${m.name} sees (none chosen: every account)`}
                        />
                        <button type="submit" class="secondary">
                          Save groups
                        </button>
                      </form>
                    </details>
                  ) : null}
                  <ConfirmDelete
                    action={path(`/${m.userId}/remove`)}
                    csrfToken={csrfToken}
                    what="member"
                    verb="Remove"
                    label={`Remove ${m.name}`}
                  >
                    Remove {m.name} from this workspace? Their posts stay.
                  </ConfirmDelete>
                </div>
              ) : null}
            </li>
          )
        })}
      </ul>
      {manager ? (
        <Setting id="invite" title="Invite someone" description="An invitation is a link for one person and one role.">
          <RoleLegend />
          <form method="post" action={workspacePage(member, '/settings/invitations')} class="row-form">
            <Csrf token={csrfToken} />
            <label for="invite-role" class="visually-hidden">
              Role
            </label>
            <RoleSelect id="invite-role" allowOwner={owner} />
            <button type="submit">Create invitation link</button>
          </form>
          {invitations.length ? (
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
                    <td data-label="Role">{ROLE_WORDS[i.role].name}</td>
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
                          <button type="submit" class="secondary btn-small">
                            Withdraw
                          </button>
                        </form>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
        </Setting>
      ) : null}
    </SettingsPage>,
    status,
  )
}

/** An AppError of a manage action as the page's message with its status; anything else is thrown on. */
function refusal(c: Context<DashboardEnv>, err: unknown) {
  if (!(err instanceof AppError)) throw err
  const status =
    err.code === 'plan_limit_reached' || err.code === 'forbidden' ? 403 : err.code === 'not_found' ? 404 : 400
  if (status === 400 && err.code !== 'invalid_request') throw err
  return render(c, { error: err.message }, status)
}

/** The member the action is about, when they are in this workspace. */
async function targetOf(c: Context<DashboardEnv>) {
  const members = await listMembers(c.var.deps.db, c.var.member.workspaceId)
  return members.find((m) => m.userId === c.req.param('userId'))
}

/** Registers the members page and its actions. */
export function registerMemberPages(app: Hono<DashboardEnv>): void {
  app.get('/settings/members', (c) => refuseReviewer(c) ?? render(c))

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
        caller: dashboardCaller(c),
      })
      const origin = deps.settings.publicUrl ?? new URL(c.req.url).origin
      return render(c, { link: { url: `${origin}/app/invitations/${created.token}`, role } })
    } catch (err) {
      return refusal(c, err)
    }
  })

  app.post('/settings/invitations/:invitationId/revoke', async (c) => {
    const refused = refuseUnlessManager(c)
    if (refused) return refused
    const { deps } = c.var
    try {
      await revokeInvitation(deps.db, dashboardCaller(c), c.req.param('invitationId'), deps.clock.now())
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
    const target = await targetOf(c)
    if (target?.role === 'owner' && member.role !== 'owner')
      return render(c, { error: 'Only an owner can change an owner.' }, 403)
    try {
      await changeMemberRole(deps.db, dashboardCaller(c), c.req.param('userId'), role)
      return render(c, { notice: `${target?.name ?? 'The member'} is now ${ROLE_WORDS[role].name.toLowerCase()}.` })
    } catch (err) {
      return refusal(c, err)
    }
  })

  app.post('/settings/members/:userId/groups', async (c) => {
    const refused = refuseUnlessManager(c)
    if (refused) return refused
    const groupIds = allValues(await c.req.parseBody({ all: true }), 'groupIds')
    const { deps } = c.var
    try {
      await setMemberGroups(deps.db, dashboardCaller(c), c.req.param('userId'), groupIds.length ? groupIds : null)
      const target = await targetOf(c)
      return render(c, {
        notice: groupIds.length
          ? `${target?.name ?? 'The member'} now sees ${groupIds.length} group${groupIds.length === 1 ? '' : 's'}.`
          : `${target?.name ?? 'The member'} now sees every account.`,
      })
    } catch (err) {
      return refusal(c, err)
    }
  })

  app.post('/settings/members/:userId/remove', async (c) => {
    const refused = refuseUnlessManager(c)
    if (refused) return refused
    const { deps, member } = c.var
    const target = await targetOf(c)
    if (target?.role === 'owner' && member.role !== 'owner')
      return render(c, { error: 'Only an owner can remove an owner.' }, 403)
    try {
      await removeMember(deps.db, dashboardCaller(c), c.req.param('userId'))
      if (c.req.param('userId') === member.userId) return c.redirect('/app', 303)
      return render(c, { notice: 'Member removed.' })
    } catch (err) {
      return refusal(c, err)
    }
  })
}
