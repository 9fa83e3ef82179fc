/** The composer's small form parts: a field's problems beside it, a text field, a pinboard account's board. */
import type { AccountRecord } from '../../services/accounts'
import type { listAccountBoards } from '../../services/boards'

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
  const { account: a, choices } = props
  const field = `board-${a.id}`
  if (typeof choices === 'string' || choices === undefined) {
    return (
      <div data-accounts={a.id}>
        <TextField
          name={`board.${a.id}`}
          field={field}
          label={`Board id for ${a.username}`}
          value={props.value}
          errors={props.errors}
        />
        <p class="hint">
          The boards of {a.username} could not be listed: {choices ?? 'the account is not connected.'}
        </p>
      </div>
    )
  }
  const known = choices.some((b) => b.id === props.value)
  return (
    <div class="field" data-accounts={a.id}>
      <label for={field}>Board for {a.username}</label>
      <select name={`board.${a.id}`} id={field} aria-describedby={`errors-${field}`}>
        <option value="">Choose a board</option>
        {choices.map((b) => (
          <option value={b.id} selected={b.id === props.value}>
            {b.name} ({b.privacy.toLowerCase()})
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
