/** The composer's small form parts: a field's problems beside it, a text field, a pinboard account's board. */
import type { AccountRecord } from '../../services/accounts/accounts'
import type { listAccountBoards } from '../../services/accounts/boards'

/** Per pinboard account: its boards, or why they could not be listed. */
export type BoardChoices = Record<string, Awaited<ReturnType<typeof listAccountBoards>> | string>

/** The problems of one form control, in a list the control points at (`aria-describedby`). */
export const FieldErrors = ({ field, errors }: { field: string; errors: Record<string, string[]> }) => (
  <ul class="field-errors" id={`errors-${field}`} data-field-errors={field} aria-live="polite">
    {(errors[field] ?? []).map((m) => (
      <li>{m}</li>
    ))}
  </ul>
)

export function TextField(props: {
  name: string
  field?: string
  label: string
  value: string
  errors: Record<string, string[]>
  type?: string
  /** The networks the field applies to (the script hides it when none of them is selected). */
  platforms?: string[]
}) {
  const field = props.field ?? props.name
  return (
    <div class="field" data-platforms={props.platforms?.join(' ')}>
      <label for={field}>{props.label}</label>
      <input
        type={props.type ?? 'text'}
        name={props.name}
        id={field}
        value={props.value}
        aria-describedby={`errors-${field}`}
      />
      <FieldErrors field={field} errors={props.errors} />
    </div>
  )
}

/** The board of one pinboard account: chosen from its boards, or typed as an id when they cannot be listed. */
export function BoardField(props: {
  account: AccountRecord
  choices: BoardChoices[string] | undefined
  value: string
  errors: Record<string, string[]>
}) {
  const { choices } = props
  const listed = Array.isArray(choices)
    ? choices.map((b) => ({ id: b.id, label: `${b.name} (${b.privacy.toLowerCase()})` }))
    : choices
  return <ListedPlaceField {...props} choices={listed} name="board" noun="board" nounPlural="boards" />
}

/**
 * The place one account publishes into (a board, a subreddit, a channel): chosen from what its
 * network lists, a stored value it no longer lists kept and marked, or typed as an id when the
 * listing failed (`choices` is then why).
 */
export function ListedPlaceField(props: {
  account: AccountRecord
  choices: Array<{ id: string; label: string }> | string | undefined
  /** The form field's name before `.<accountId>`. */
  name: string
  noun: string
  nounPlural: string
  value: string
  errors: Record<string, string[]>
}) {
  const { account: a, choices, noun } = props
  const field = `${props.name}-${a.id}`
  if (typeof choices === 'string' || choices === undefined) {
    return (
      <div data-accounts={a.id}>
        <TextField
          name={`${props.name}.${a.id}`}
          field={field}
          label={`${capital(noun)} id for ${a.username}`}
          value={props.value}
          errors={props.errors}
        />
        <p class="hint">
          The {props.nounPlural} of {a.username} could not be listed: {choices ?? 'the account is not connected.'}
        </p>
      </div>
    )
  }
  const known = choices.some((c) => c.id === props.value)
  return (
    <div class="field" data-accounts={a.id}>
      <label for={field}>
        {capital(noun)} for {a.username}
      </label>
      <select name={`${props.name}.${a.id}`} id={field} aria-describedby={`errors-${field}`}>
        <option value="">Choose a {noun}</option>
        {choices.map((c) => (
          <option value={c.id} selected={c.id === props.value}>
            {c.label}
          </option>
        ))}
        {props.value && !known ? (
          <option value={props.value} selected>
            {props.value} (no longer listed)
          </option>
        ) : null}
      </select>
      <FieldErrors field={field} errors={props.errors} />
    </div>
  )
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1)
