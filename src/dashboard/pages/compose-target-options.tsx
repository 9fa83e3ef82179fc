/**
 * The per-target parts of the composer a network declares in the rules registry: where each
 * account publishes (`options.destination`, from the account's listing) and the options it takes
 * (`options.fields`), each control drawn from the field's type. No network is named here.
 */
import { RULES } from '../../domain/rules/index'
import type { OptionField } from '../../domain/rules/schema'
import type { Destination } from '../../networks/adapter'
import type { AccountRecord } from '../../services/accounts/accounts'
import type { ComposeValues } from './compose-form'
import { FieldErrors, ListedPlaceField } from './compose-fields'
import { optionId, optionName } from './compose-target-form'

/** Per account with destinations: its destinations, or why they could not be listed. */
export type DestinationChoices = Record<string, Destination[] | string>

/** Accounts that choose a destination here (the pinboard network's board has its own field). */
export const choosesDestination = (a: Pick<AccountRecord, 'platform'>) =>
  RULES[a.platform].options.destination !== null && RULES[a.platform].options.pinboardNetBoards === null

export function DestinationField(props: {
  account: AccountRecord
  choices: DestinationChoices[string] | undefined
  value: string
  errors: Record<string, string[]>
}) {
  const { choices } = props
  const rule = RULES[props.account.platform].options.destination
  if (rule === null) return null
  const listed = Array.isArray(choices) ? choices.map((d) => ({ id: d.id, label: d.name })) : choices
  return (
    <ListedPlaceField {...props} choices={listed} name="destination" noun={rule.noun} nounPlural={rule.nounPlural} />
  )
}

/** The control of one field, by its type. */
function OptionControl(props: { field: OptionField; accountId: string; value: string; described: string }) {
  const { field: f, accountId, value, described } = props
  const common = { name: optionName(f, accountId), id: optionId(accountId, f.key), 'aria-describedby': described }
  const max = f.maxLength ?? undefined
  switch (f.type) {
    case 'text':
      return (
        <textarea {...common} rows={4} maxlength={max}>
          {value}
        </textarea>
      )
    case 'boolean':
      return <input type="checkbox" {...common} value="true" checked={value === 'true'} />
    case 'enum':
      return (
        <select {...common}>
          <option value="">{f.requiredToPublish ? 'Choose one' : 'None'}</option>
          {(f.values ?? []).map((v) => (
            <option value={v} selected={v === value}>
              {v}
            </option>
          ))}
        </select>
      )
    case 'integer':
      return (
        <input type="number" step="1" min={f.min ?? undefined} max={f.max ?? undefined} {...common} value={value} />
      )
    case 'datetime':
      return <input type="datetime-local" {...common} value={value} />
    case 'url':
      return <input type="url" {...common} value={value} maxlength={max} />
    default:
      return <input type="text" {...common} value={value} maxlength={f.type === 'string' ? max : undefined} />
  }
}

/** What a field's hint says: its description and limits, from the rules. */
function hintOf(f: OptionField): string {
  const limits = [
    f.type === 'tags' ? 'separate with commas' : null,
    f.maxItems !== null ? `at most ${f.maxItems}` : null,
    f.requiredToPublish ? 'needed to publish' : null,
  ].filter((x): x is string => x !== null)
  return limits.length > 0 ? `${f.description} (${limits.join(', ')})` : f.description
}

/** Every option field of one account, from its platform's `options.fields`. */
export function OptionFields(props: {
  account: Pick<AccountRecord, 'id' | 'platform' | 'username'>
  values: Pick<ComposeValues, 'options'>
  errors: Record<string, string[]>
  /** A test's own fields; absent: the registry's. */
  fields?: OptionField[]
}) {
  const { account: a } = props
  const fields = props.fields ?? RULES[a.platform].options.fields
  if (fields.length === 0) return null
  return (
    <div class="option-fields" data-accounts={a.id}>
      {fields.map((f) => {
        const id = optionId(a.id, f.key)
        return (
          <div class={f.type === 'boolean' ? 'field field-check' : 'field'}>
            <label for={id}>
              {f.label} ({a.username})
            </label>
            <OptionControl
              field={f}
              accountId={a.id}
              value={props.values.options.values[`${a.id}.${f.key}`] ?? ''}
              described={`hint-${id} errors-${id}`}
            />
            <p class="hint" id={`hint-${id}`}>
              {hintOf(f)}
            </p>
            <FieldErrors field={id} errors={props.errors} />
          </div>
        )
      })}
    </div>
  )
}
