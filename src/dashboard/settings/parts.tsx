/**
 * Pieces the settings pages share: a setting card, the switch, colour dots and swatches (drawn as SVG
 * fills: the CSP allows no inline style), the delete that asks first (no script), the account and group
 * pickers (large rows that work by touch), the list tables and their one-button actions, the save of a
 * form that goes back to its list, and the roles in words and the role choice.
 */
import type { Child } from 'hono/jsx'
import { AppError } from '../../domain/errors'
import { MEMBER_ROLES, type MemberRole } from '../../domain/people'
import type { PlatformId } from '../../domain/vocabulary'
import { Csrf } from '../pages'
import { back, type PageContext } from '../pages/shared'
import { NetworkMark, networkName } from '../ui'

/** The colours offered for groups and labels (any `#rrggbb` is kept as sent by the API). */
export const PALETTE: Array<[string, string]> = [
  ['#64748b', 'Slate'],
  ['#2563eb', 'Blue'],
  ['#0891b2', 'Cyan'],
  ['#059669', 'Green'],
  ['#65a30d', 'Lime'],
  ['#d97706', 'Amber'],
  ['#ea580c', 'Orange'],
  ['#dc2626', 'Red'],
  ['#db2777', 'Pink'],
  ['#7c3aed', 'Violet'],
]

/** A colour as the form sent it, when it is one of ours or any `#rrggbb`; else null. */
export const parseColor = (value: string | undefined): string | null =>
  value && /^#[0-9a-fA-F]{6}$/.test(value) ? value.toLowerCase() : null

/** What each role may do, in one line (the members page and the token form). */
export const ROLE_WORDS: Record<MemberRole, { name: string; line: string }> = {
  owner: { name: 'Owner', line: 'Everything, including the plan and other owners.' },
  admin: { name: 'Admin', line: 'Everything but owners: members, tokens, groups, settings.' },
  member: { name: 'Member', line: 'Writes, schedules and publishes posts; connects accounts.' },
  reviewer: { name: 'Reviewer', line: 'Sees posts, comments, approves or asks for changes.' },
}

export /** The role choice (a form's `role`), each option with its one line. */
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

/** A colour dot (decorative; the name is written beside it). */
export const Dot = (props: { color: string | null; large?: boolean }) => (
  <svg class={props.large ? 'dot is-large' : 'dot'} viewBox="0 0 10 10" aria-hidden="true" focusable="false">
    <circle cx="5" cy="5" r="5" fill={props.color ?? '#64748b'} />
  </svg>
)

/** A card of settings: heading, a line of explanation, its body, and an optional footer (the save button). */
export function Setting(props: {
  title: Child
  description?: Child
  id?: string
  danger?: boolean
  foot?: Child
  children?: Child
}) {
  const headingId = props.id ? `${props.id}-title` : undefined
  return (
    <section class={props.danger ? 'setting is-danger' : 'setting'} id={props.id} aria-labelledby={headingId}>
      <div class="setting-head">
        <h2 id={headingId}>{props.title}</h2>
        {props.description ? <p>{props.description}</p> : null}
      </div>
      {props.children ? <div class="setting-body">{props.children}</div> : null}
      {props.foot ? <div class="setting-foot">{props.foot}</div> : null}
    </section>
  )
}

/** An on/off switch: a checkbox drawn as a switch, with its title and a line of help. */
export function Switch(props: { id: string; name: string; title: Child; help?: Child; checked: boolean }) {
  return (
    <label class="switch-row" for={props.id}>
      <span class="switch-text">
        <span class="switch-title">{props.title}</span>
        {props.help ? <span class="switch-help">{props.help}</span> : null}
      </span>
      <input type="checkbox" class="switch" id={props.id} name={props.name} value="on" checked={props.checked} />
    </label>
  )
}

/** The colour choice as swatches (radio buttons named by colour). */
export function Swatches(props: { name: string; value: string | null; legend?: string; idPrefix: string }) {
  const current = props.value ?? PALETTE[0]![0]
  const known = PALETTE.some(([c]) => c === current)
  const choices = known ? PALETTE : [...PALETTE, [current, 'Current colour'] as [string, string]]
  return (
    <fieldset class="swatches">
      <legend>{props.legend ?? 'Colour'}</legend>
      {choices.map(([color, name]) => (
        <label class="swatch" title={name}>
          <input
            type="radio"
            name={props.name}
            value={color}
            checked={color === current}
            aria-label={name}
            id={`${props.idPrefix}-${color.slice(1)}`}
          />
          <svg viewBox="0 0 10 10" aria-hidden="true" focusable="false">
            <circle cx="5" cy="5" r="5" fill={color} />
          </svg>
        </label>
      ))}
    </fieldset>
  )
}

/** A delete that asks first: a disclosure holding the sentence and the real button (no script). */
export function ConfirmDelete(props: {
  /** The word of the disclosure and the button (default Delete). */
  verb?: string
  action: string
  csrfToken: string
  what: string
  label: string
  children?: Child
}) {
  return (
    <details class="confirm-delete">
      <summary aria-label={props.label}>{props.verb ?? 'Delete'}</summary>
      <form method="post" action={props.action} class="confirm-box">
        <Csrf token={props.csrfToken} />
        <p>{props.children}</p>
        <button type="submit" class="danger">
          {props.verb ?? 'Delete'} {props.what}
        </button>
      </form>
    </details>
  )
}

/** An account as the pickers list it. */
export interface PickAccount {
  id: string
  platform: PlatformId
  username: string
}

/** Accounts to choose (checkbox rows with the network's mark): `accountIds` of a group. */
export function AccountPicker(props: {
  accounts: PickAccount[]
  chosen: readonly string[]
  legend: string
  name?: string
}) {
  return (
    <fieldset class="picker">
      <legend>{props.legend}</legend>
      {props.accounts.map((a) => (
        <label class="pick">
          <input type="checkbox" name={props.name ?? 'accountIds'} value={a.id} checked={props.chosen.includes(a.id)} />
          <NetworkMark platform={a.platform} />
          <span class="pick-text">
            <strong>{a.username}</strong>
            <span>{networkName(a.platform)}</span>
          </span>
        </label>
      ))}
    </fieldset>
  )
}

/** A group as the pickers list it. */
export interface PickGroup {
  id: string
  name: string
  color: string | null
  accountIds: readonly string[]
}

/** Groups to choose (checkbox rows with their colour): a member's or a token's limit. */
export function GroupPicker(props: { groups: PickGroup[]; chosen: readonly string[]; legend: string; name?: string }) {
  return (
    <fieldset class="picker">
      <legend>{props.legend}</legend>
      {props.groups.map((g) => (
        <label class="pick">
          <input type="checkbox" name={props.name ?? 'groupIds'} value={g.id} checked={props.chosen.includes(g.id)} />
          <Dot color={g.color} large />
          <span class="pick-text">
            <strong>{g.name}</strong>
            <span>
              {g.accountIds.length} account{g.accountIds.length === 1 ? '' : 's'}
            </span>
          </span>
        </label>
      ))}
    </fieldset>
  )
}

/** Every value of a repeated form field (checkboxes), as strings. */
export function allValues(body: Record<string, unknown>, name: string): string[] {
  const v = body[name] ?? body[`${name}[]`]
  return ([] as unknown[]).concat(v ?? []).filter((x): x is string => typeof x === 'string')
}

/** A time of a list (created, last used, expires) in UTC to the minute; `never` when there is none. */
export const whenUtc = (iso: string | null) => (iso ? `${iso.slice(0, 16).replace('T', ' ')} UTC` : 'never')

/**
 * A list as a table whose rows become cards on a phone: its caption, the column headings and the rows
 * (each cell with `data-label`, its column's heading).
 */
export function ListTable(props: {
  caption: string
  columns: string[]
  /** Classes besides `cards-on-phone`. */
  class?: string
  testId?: string
  children?: Child
}) {
  return (
    <table class={props.class ? `cards-on-phone ${props.class}` : 'cards-on-phone'} data-testid={props.testId}>
      <caption>{props.caption}</caption>
      <thead>
        <tr>
          {props.columns.map((column) => (
            <th scope="col">{column}</th>
          ))}
        </tr>
      </thead>
      <tbody>{props.children}</tbody>
    </table>
  )
}

/** A form of one button posting to `action` (revoke, delete, replay a row), with the form token. */
export function ActionButton(props: {
  action: string
  csrfToken: string
  /** The button's classes, e.g. `danger` or `secondary`. */
  class: string
  /** What the button does to which row, for screen readers (its word alone names no row). */
  label?: string
  children?: Child
}) {
  return (
    <form method="post" action={props.action} class="inline">
      <Csrf token={props.csrfToken} />
      <button type="submit" class={props.class} aria-label={props.label}>
        {props.children}
      </button>
    </form>
  )
}

/** A refusal the member can fix, to show with the form again: its words, 409 for a name taken, else 400. */
export interface FormRefusal {
  message: string
  status: 400 | 409
}

/**
 * The save of a settings form: once saved, back to `list` with the notice `saved` words; a refusal whose
 * code is among `fixable` shows the form again with it (`showAgain`); anything else goes on.
 */
export async function saveThenBack<T>(
  c: PageContext,
  form: {
    save: () => Promise<T>
    list: string
    saved: (result: T) => string
    fixable: readonly string[]
    showAgain: (refusal: FormRefusal) => Response | Promise<Response>
  },
): Promise<Response> {
  let result: T
  try {
    result = await form.save()
  } catch (err) {
    if (!(err instanceof AppError) || !form.fixable.includes(err.code)) throw err
    return form.showAgain({ message: err.message, status: err.code === 'name_taken' ? 409 : 400 })
  }
  return back(c, form.list, { notice: form.saved(result) })
}
