/**
 * Members and invitations: invite by link for a role (shown once to the inviter), withdraw, change a
 * role, limit a member or a reviewer to some groups, remove a member. Owners and admins manage; only an
 * owner gives or changes an owner, and the last owner stays one (the service refuses, the page says so).
 * The page and its actions are here; its list is ./members-list.tsx, its invite card ./members-invite.tsx.
 */
import type { Context, Hono } from 'hono'
import { AppError } from '../../domain/errors'
import { canManage, isMemberRole, type MemberRole } from '../../domain/people'
import { listGroups } from '../../services/groups/groups'
import { createInvitation, listInvitations, revokeInvitation } from '../../services/people/invitations'
import {
  changeMemberRole,
  listMemberGroupIds,
  listMembers,
  removeMember,
  setMemberGroups,
} from '../../services/people/memberships'
import { dashboardCaller } from '../caller'
import type { DashboardEnv } from '../env'
import { workspacePage } from '../env'
import { Message } from '../pages'
import { formFields } from '../session'
import { refuseUnlessManager } from '../workspace'
import { refuseReviewer, SettingsPage } from './frame'
import { InvitationLink, InviteCard } from './members-invite'
import { MemberRow, type MemberRowContext } from './members-list'
import { allValues, type PickGroup, ROLE_WORDS } from './parts'

/** What an action leaves on the page: the link it made, or its notice or error. */
interface MembersPageState {
  link?: { url: string; role: MemberRole }
  notice?: string
  error?: string
}

/** The members page, as the signed-in member sees it. */
async function render(c: Context<DashboardEnv>, state: MembersPageState = {}, status: 200 | 400 | 403 | 404 = 200) {
  const { member, csrfToken, deps } = c.var
  const manager = canManage(member.role)
  const [members, invitations, groups] = await Promise.all([
    listMembers(deps.db, member.workspaceId),
    manager ? listInvitations(deps.db, member.workspaceId, deps.clock.now()) : Promise.resolve([]),
    listGroups(deps.db, dashboardCaller(c)),
  ])
  const limits = await Promise.all(
    members.map((m) => listMemberGroupIds(deps.db, { workspaceId: member.workspaceId, role: m.role }, m.userId)),
  )
  const ctx: MemberRowContext = {
    manager,
    owner: member.role === 'owner',
    csrfToken,
    groups,
    groupsById: new Map<string, PickGroup>(groups.map((g) => [g.id, g])),
    path: (p: string) => workspacePage(member, `/settings/members${p}`),
  }
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
      {state.link ? <InvitationLink link={state.link} /> : null}
      <ul class="member-list" aria-label="Members">
        {members.map((m, i) => (
          <MemberRow m={m} groupIds={limits[i] ?? null} ctx={ctx} />
        ))}
      </ul>
      {manager ? <InviteCard member={member} csrfToken={csrfToken} invitations={invitations} /> : null}
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
