/** The accounts page's groups: each account's groups as chips, and the filter by group. */
import type { GroupRecord } from '../../services/groups/groups'

/** A group's colour dot (an SVG fill: the CSP allows no inline style). */
const Dot = (props: { color: string | null }) => (
  <svg class="dot" viewBox="0 0 10 10" aria-hidden="true" focusable="false">
    <circle cx="5" cy="5" r="5" fill={props.color ?? '#64748b'} />
  </svg>
)

/** The groups an account is in, as small chips; nothing when it is in none. */
export function AccountGroupChips(props: { groups: GroupRecord[]; groupIds: readonly string[] }) {
  const mine = props.groups.filter((g) => props.groupIds.includes(g.id))
  if (mine.length === 0) return null
  return (
    <ul class="account-groups" aria-label="Groups">
      {mine.map((g) => (
        <li>
          <span class="chip chip-group">
            <Dot color={g.color} />
            {g.name}
          </span>
        </li>
      ))}
    </ul>
  )
}

/** "All accounts" and one chip per group, the one shown marked; nothing when there is no group. */
export function GroupFilter(props: {
  groups: GroupRecord[]
  current: string | undefined
  href: (groupId: string | null) => string
}) {
  if (props.groups.length === 0) return null
  return (
    <nav aria-label="Filter by group">
      <ul class="filter-chips">
        <li>
          <a class="chip" href={props.href(null)} aria-current={props.current ? undefined : 'true'}>
            All accounts
          </a>
        </li>
        {props.groups.map((g) => (
          <li>
            <a
              class="chip chip-group"
              href={props.href(g.id)}
              aria-current={props.current === g.id ? 'true' : undefined}
            >
              <Dot color={g.color} />
              {g.name}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  )
}

/**
 * The connect form's group: the groups the member may connect into, the one shown preselected. A
 * member limited to groups picks one of theirs; one who sees the whole workspace may pick "No
 * group". Nothing when there is no group to pick.
 */
export function ConnectGroupField(props: { groups: GroupRecord[]; limited: boolean; current: string | undefined }) {
  if (props.groups.length === 0) return null
  return (
    <div class="connect-field">
      <label for="groupId">Group</label>
      <select name="groupId" id="groupId" required={props.limited}>
        {props.limited ? null : <option value="">No group</option>}
        {props.groups.map((g) => (
          <option value={g.id} selected={g.id === props.current}>
            {g.name}
          </option>
        ))}
      </select>
    </div>
  )
}
