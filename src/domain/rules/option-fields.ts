/** A per-target option of a network's rules (`options.fields`), every limit `null` unless given. */
import type { OptionField } from './schema'

export function optionField(
  key: string,
  label: string,
  type: OptionField['type'],
  description: string,
  extra: Partial<OptionField> = {},
): OptionField {
  return {
    key,
    label,
    type,
    values: null,
    maxLength: null,
    maxItems: null,
    min: null,
    max: null,
    requiredToPublish: false,
    description,
    ...extra,
  }
}
