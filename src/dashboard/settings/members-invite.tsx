/**
 * Inviting on the members page: the invitation link just created (shown once), and the invite card
 * with the roles, the form that makes a link and the workspace's invitations (a pending one withdrawn).
 */
import { MEMBER_ROLES, type MemberRole } from '../../domain/people'
import type { InvitationView } from '../../services/people/invitations'
import type { DashboardMember } from '../env'
import { workspacePage } from '../env'
import { Csrf } from '../pages'
import { ROLE_WORDS, RoleSelect, ActionButton, Setting } from './parts'

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

/** The invitation link just created: shown this once to the inviter. */
export function InvitationLink(props: { link: { url: string; role: MemberRole } }) {
  return (
    <section class="notice" aria-labelledby="invite-link">
      <div>
        <h2 id="invite-link">Invitation link for a {ROLE_WORDS[props.link.role].name.toLowerCase()}</h2>
        <p>Send this link to the person you invite. It works once, for 7 days, and is shown only now.</p>
        <p class="secret" data-testid="invitation-link">
          {props.link.url}
        </p>
      </div>
    </section>
  )
}

/** The workspace's invitations with their state; a pending one can be withdrawn. */
function InvitationTable(props: { member: DashboardMember; csrfToken: string; invitations: InvitationView[] }) {
  return (
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
        {props.invitations.map((i) => (
          <tr>
            <td data-label="Role">{ROLE_WORDS[i.role].name}</td>
            <td data-label="Created">{i.createdAt.slice(0, 16).replace('T', ' ')} UTC</td>
            <td data-label="State">
              {i.state}{' '}
              {i.state === 'pending' ? (
                <ActionButton
                  action={workspacePage(props.member, `/settings/invitations/${i.id}/revoke`)}
                  csrfToken={props.csrfToken}
                  class="secondary btn-small"
                >
                  Withdraw
                </ActionButton>
              ) : null}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/** The invite card (for managers): the roles, the form that makes a link, the invitations so far. */
export function InviteCard(props: { member: DashboardMember; csrfToken: string; invitations: InvitationView[] }) {
  const { member, csrfToken, invitations } = props
  return (
    <Setting id="invite" title="Invite someone" description="An invitation is a link for one person and one role.">
      <RoleLegend />
      <form method="post" action={workspacePage(member, '/settings/invitations')} class="row-form">
        <Csrf token={csrfToken} />
        <label for="invite-role" class="visually-hidden">
          Role
        </label>
        <RoleSelect id="invite-role" allowOwner={member.role === 'owner'} />
        <button type="submit">Create invitation link</button>
      </form>
      {invitations.length ? <InvitationTable member={member} csrfToken={csrfToken} invitations={invitations} /> : null}
    </Setting>
  )
}
