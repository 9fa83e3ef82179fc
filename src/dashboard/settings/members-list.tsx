/**
 * The members list of the members page: each member with their role and the accounts they reach, and
 * for a manager the forms to change the role, limit a member or reviewer to groups, and remove.
 */
import type { MemberRole } from '../../domain/people'
import type { MemberView } from '../../services/people/memberships'
import { Csrf } from '../pages'
import { ConfirmDelete, Dot, GroupPicker, type PickGroup, ROLE_WORDS, RoleSelect } from './parts'

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

/** What every member row is drawn with: who is looking, the workspace's groups, the actions' paths. */
export interface MemberRowContext {
  manager: boolean
  owner: boolean
  csrfToken: string
  groups: PickGroup[]
  groupsById: Map<string, PickGroup>
  path: (p: string) => string
}

/** A manager's forms on a member: change the role, limit a member or reviewer to groups, remove. */
function MemberManage(props: { m: MemberView; groupIds: readonly string[] | null; ctx: MemberRowContext }) {
  const { m, groupIds, ctx } = props
  const limited = m.role === 'member' || m.role === 'reviewer'
  return (
    <div class="member-manage">
      <form method="post" action={ctx.path(`/${m.userId}/role`)} class="row-form">
        <Csrf token={ctx.csrfToken} />
        <RoleSelect id={`role-${m.userId}`} value={m.role} allowOwner={ctx.owner} label={`Role of ${m.name}`} />
        <button type="submit" class="secondary">
          Change role
        </button>
      </form>
      {limited && ctx.groups.length ? (
        <details class="limit">
          <summary>Limit to groups</summary>
          <form method="post" action={ctx.path(`/${m.userId}/groups`)}>
            <Csrf token={ctx.csrfToken} />
            <GroupPicker
              groups={ctx.groups}
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
        action={ctx.path(`/${m.userId}/remove`)}
        csrfToken={ctx.csrfToken}
        what="member"
        verb="Remove"
        label={`Remove ${m.name}`}
      >
        Remove {m.name} from this workspace? Their posts stay.
      </ConfirmDelete>
    </div>
  )
}

/** A member: name and address, role and reach, and the forms when the viewer may change them. */
export function MemberRow(props: { m: MemberView; groupIds: readonly string[] | null; ctx: MemberRowContext }) {
  const { m, groupIds, ctx } = props
  const mayChange = ctx.manager && (ctx.owner || m.role !== 'owner')
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
        <Scope role={m.role} groupIds={groupIds} groups={ctx.groupsById} />
      </div>
      {mayChange ? <MemberManage m={m} groupIds={groupIds} ctx={ctx} /> : null}
    </li>
  )
}
