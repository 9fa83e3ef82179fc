/**
 * `targetOptions.<accountId>.<key>`: per-target options checked against the account's platform
 * `options.fields` in the rules registry, so a new network adds fields as data and no code here.
 * An entry for an account that is not the post's, or whose network takes no option, a key the
 * network does not define, a value of the wrong type, a value not listed, too long or too many:
 * 422 `invalid_option` at the value's path. A field the network needs to publish
 * (`requiredToPublish`) is what a draft may lack: only schedule, queue and publish now refuse it
 * (docs/decisions.md, "Drafts").
 */
import { orList } from './format'
import type { OptionField, OptionFieldType } from '../rules/schema'
import { rulesFor } from '../rules/index'
import type { TargetOptionValue } from '../post-content'
import type { ValidationAccount, ValidationContext, Violation } from './types'
import type { RulesOf } from './destinations'

const isHttpUrl = (value: string): boolean => {
  try {
    const url = new URL(value)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== ''
  } catch {
    return false
  }
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/
const isInstant = (value: string) => ISO_INSTANT.test(value) && !Number.isNaN(Date.parse(value))
const isText = (v: unknown): v is string => typeof v === 'string'

/** What each field type accepts, and how a refusal names what was expected. */
export const OPTION_TYPE_CHECKS: Record<OptionFieldType, { accepts: (v: unknown) => boolean; expected: string }> = {
  string: { accepts: (v) => isText(v) && !/[\r\n]/.test(v), expected: 'one line of text' },
  text: { accepts: isText, expected: 'text' },
  boolean: { accepts: (v) => typeof v === 'boolean', expected: 'true or false' },
  enum: { accepts: isText, expected: 'one of the listed values' },
  tags: { accepts: (v) => Array.isArray(v) && v.every(isText), expected: 'a list of strings' },
  url: { accepts: (v) => isText(v) && isHttpUrl(v), expected: 'an absolute http:// or https:// URL' },
  datetime: { accepts: (v) => isText(v) && isInstant(v), expected: 'an ISO 8601 time with an offset or Z' },
  integer: { accepts: (v) => typeof v === 'number' && Number.isInteger(v), expected: 'a whole number' },
}

const length = (text: string) => [...text].length

/** The limits of a value of the right type: listed values, length, count, range. */
function limitProblem(
  field: OptionField,
  value: TargetOptionValue,
): Pick<Violation, 'message' | 'limit' | 'actual'> | null {
  if (field.values !== null && isText(value) && !field.values.includes(value)) {
    return { message: `${field.label} "${value}" is not one of ${orList(field.values)}.` }
  }
  if (field.maxLength !== null && isText(value) && length(value) > field.maxLength) {
    const actual = length(value)
    return {
      message: `${field.label} is ${actual} characters; at most ${field.maxLength}.`,
      limit: field.maxLength,
      actual,
    }
  }
  if (Array.isArray(value)) {
    if (field.maxItems !== null && value.length > field.maxItems) {
      return {
        message: `${field.label} has ${value.length} entries; at most ${field.maxItems}.`,
        limit: field.maxItems,
        actual: value.length,
      }
    }
    const long = field.maxLength === null ? undefined : value.find((tag) => length(tag) > field.maxLength!)
    if (long !== undefined) {
      return {
        message: `${field.label} "${long}" is ${length(long)} characters; each entry at most ${field.maxLength}.`,
        limit: field.maxLength!,
        actual: length(long),
      }
    }
    if (value.some((tag) => tag.trim() === '')) return { message: `${field.label} has an empty entry.` }
  }
  if (typeof value === 'number') {
    if (field.min !== null && value < field.min)
      return { message: `${field.label} is ${value}; at least ${field.min}.`, limit: field.min, actual: value }
    if (field.max !== null && value > field.max)
      return { message: `${field.label} is ${value}; at most ${field.max}.`, limit: field.max, actual: value }
  }
  return null
}

/** Problems of one value against its field; [] when it is fine. */
export function checkOptionValue(
  field: OptionField,
  value: TargetOptionValue,
): Array<Pick<Violation, 'message' | 'limit' | 'actual'>> {
  const check = OPTION_TYPE_CHECKS[field.type]
  if (!check.accepts(value)) return [{ message: `${field.label} (${field.key}) must be ${check.expected}.` }]
  const problem = limitProblem(field, value)
  return problem ? [problem] : []
}

const isBlank = (value: TargetOptionValue | undefined) =>
  value === undefined || (isText(value) && value.trim() === '') || (Array.isArray(value) && value.length === 0)

/** `rulesOf` is the registry; a test passes synthetic rules. */
export function checkTargetOptions(ctx: ValidationContext, rulesOf: RulesOf = rulesFor): Violation[] {
  const entries = ctx.content.targetOptions ?? {}
  const out: Violation[] = []
  for (const [accountId, values] of Object.entries(entries)) {
    const account = ctx.accounts.find((a) => a.id === accountId)
    const fields = account ? rulesOf(account.platform).options.fields : []
    if (!account || fields.length === 0) {
      const why = account
        ? `is a ${account.platform} account, whose network takes no options`
        : 'is not among accountIds'
      out.push(
        invalid(`targetOptions.${accountId}`, `targetOptions has an entry for ${accountId}, which ${why}.`, {
          accountId,
        }),
      )
      continue
    }
    out.push(...checkEntry(account, fields, values))
  }
  if (ctx.intent === 'publish') out.push(...missingRequired(ctx.accounts, entries, rulesOf))
  return out
}

function checkEntry(
  account: ValidationAccount,
  fields: OptionField[],
  values: Record<string, TargetOptionValue>,
): Violation[] {
  const out: Violation[] = []
  const where = { accountId: account.id, platform: account.platform }
  for (const [key, value] of Object.entries(values)) {
    const path = `targetOptions.${account.id}.${key}`
    const field = fields.find((f) => f.key === key)
    if (!field) {
      out.push(
        invalid(
          path,
          `${account.platform} takes no option "${key}"; it takes ${orList(fields.map((f) => f.key))}.`,
          where,
        ),
      )
      continue
    }
    // A blank value is an unset one (a form's empty input): only `requiredToPublish` minds it.
    if (isBlank(value)) continue
    for (const problem of checkOptionValue(field, value))
      out.push(invalid(path, problem.message, { ...where, ...problem }))
  }
  return out
}

/** Fields a network needs to publish that an account of the post has no value for. */
function missingRequired(
  accounts: ValidationAccount[],
  entries: Record<string, Record<string, TargetOptionValue>>,
  rulesOf: RulesOf,
): Violation[] {
  return accounts.flatMap((account) =>
    rulesOf(account.platform)
      .options.fields.filter((f) => f.requiredToPublish && isBlank(entries[account.id]?.[f.key]))
      .map((f) =>
        invalid(
          `targetOptions.${account.id}.${f.key}`,
          `${account.platform} account ${account.id} needs ${f.label} (${f.key}) to publish; set it, or save the post as a draft.`,
          { accountId: account.id, platform: account.platform },
        ),
      ),
  )
}

const invalid = (path: string, message: string, extra: Partial<Violation> = {}): Violation => ({
  code: 'invalid_option',
  path,
  ...extra,
  message,
})
