/**
 * The composer's per-target options as form fields and back, read from the rules registry
 * (`options.fields`): no network is named here. A control is named `opt.<type>.<accountId>.<key>`,
 * so the form body says how to read its value: a number, a checkbox's `true`, tags split on
 * commas, a local date and time read in the member's zone. A value that does not read as its
 * type is sent as typed, and the API's check names it beside the control.
 */
import type { OptionField, OptionFieldType } from '../../domain/rules/schema'
import type { TargetOptionValue } from '../../domain/post-content'
import { fromLocalInput, toLocalInput } from './zoned-time'

/** The control's name for one field of one account. */
export const optionName = (field: Pick<OptionField, 'type' | 'key'>, accountId: string) =>
  `opt.${field.type}.${accountId}.${field.key}`
/** The control's id, also what its problems are filed under (`targetOptions.<accountId>.<key>`). */
export const optionId = (accountId: string, key: string) => `opt-${accountId}-${key}`

/** What the form shows for a field: the value as typed, by `<accountId>.<key>`, with its type. */
export interface OptionInputs {
  values: Record<string, string>
  types: Record<string, OptionFieldType>
}

/** The `opt.` controls of a parsed form body (empty values are unset). */
export function optionInputsFromForm(entries: Array<[string, string]>): OptionInputs {
  const out: OptionInputs = { values: {}, types: {} }
  for (const [name, value] of entries) {
    const match = /^opt\.([a-z]+)\.([^.]+)\.(.+)$/.exec(name)
    if (!match || value.trim() === '') continue
    const at = `${match[2]}.${match[3]}`
    out.values[at] = value
    out.types[at] = match[1] as OptionFieldType
  }
  return out
}

/** A stored post's `targetOptions` as the form shows them (tags joined, times in the member's zone). */
export function optionInputsFromPost(
  stored: Record<string, Record<string, TargetOptionValue>> | null,
  timeZone: string,
): OptionInputs {
  const out: OptionInputs = { values: {}, types: {} }
  for (const [accountId, values] of Object.entries(stored ?? {})) {
    for (const [key, value] of Object.entries(values)) {
      const shown = Array.isArray(value)
        ? value.join(', ')
        : typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T.*(Z|[+-]\d{2}:\d{2})$/.test(value)
          ? toLocalInput(value, timeZone)
          : String(value)
      out.values[`${accountId}.${key}`] = shown
    }
  }
  return out
}

function readValue(type: OptionFieldType | undefined, typed: string, timeZone: string): TargetOptionValue {
  switch (type) {
    case 'boolean':
      return typed === 'true'
    case 'integer':
      return /^-?\d+$/.test(typed.trim()) ? Number(typed.trim()) : typed
    case 'tags':
      return typed
        .split(',')
        .map((t) => t.trim())
        .filter((t) => t !== '')
    case 'datetime':
      return fromLocalInput(typed.trim(), timeZone) ?? typed
    case 'text':
      return typed
    default:
      return typed.trim()
  }
}

/** The body's `targetOptions`: each value read as its type; null when none is set. */
export function targetOptionsOf(
  inputs: OptionInputs,
  timeZone: string,
): Record<string, Record<string, TargetOptionValue>> | null {
  const out: Record<string, Record<string, TargetOptionValue>> = {}
  for (const [at, typed] of Object.entries(inputs.values)) {
    const dot = at.indexOf('.')
    const accountId = at.slice(0, dot)
    ;(out[accountId] ??= {})[at.slice(dot + 1)] = readValue(inputs.types[at], typed, timeZone)
  }
  return Object.keys(out).length === 0 ? null : out
}
