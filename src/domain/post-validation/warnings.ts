/**
 * Warnings of a write (docs/decisions.md, "Warnings"): what the API accepted but the caller
 * likely did not mean. They never block a write; create, edit, reschedule and the dry run
 * report them alike. Which network uses a field is read from the rules registry.
 */
import { RULES } from '../rules/index'
import type { PostOptionsRules } from '../rules/schema'
import { PLATFORM_IDS, type PlatformId } from '../vocabulary'
import { orList } from './format'
import type { PostContent, PostWarning, ValidationAccount, Violation } from './types'

/** Option rules named like the body field they govern. */
type SameNameOption = Exclude<keyof PostOptionsRules, 'destination' | 'fields'>

/**
 * Content fields that only some networks use, with the rule that says a network uses it.
 * `destinations` and `targetOptions` are keyed by account and refused for an account that takes none.
 */
const NETWORK_FIELDS: ReadonlyArray<{
  field: 'threadParts' | 'title' | SameNameOption
  uses: (p: PlatformId) => boolean
}> = [
  { field: 'threadParts', uses: (p) => RULES[p].threadModel },
  { field: 'title', uses: (p) => RULES[p].title?.field === 'title' },
  ...(
    [
      'firstComment',
      'replyToMicropostId',
      'quoteMicropostId',
      'videoNetOptions',
      'audio',
      'pinboardNetBoards',
      'pinboardNetOptions',
      'linkUrl',
    ] as const
  ).map((field) => ({ field, uses: (p: PlatformId) => Boolean(RULES[p].options[field]) })),
]

/** A field is set when it carries something: not null, not blank, not an empty list or object. */
function isSet(value: unknown): boolean {
  if (value === null || value === undefined) return false
  if (typeof value === 'string') return value.trim() !== ''
  if (Array.isArray(value)) return value.length > 0
  if (typeof value === 'object') return Object.keys(value).length > 0
  return true
}

/**
 * `not_applicable`: fields set on a post none of whose networks uses them (`threadParts` without
 * a threading network, `firstComment` without the photo network, a caption override for a
 * platform the post does not target...). A field that validation already refuses (`refusedPaths`,
 * e.g. a `videoNetOptions` entry for an account that is not a short-video one) is not repeated.
 */
export function notApplicableWarnings(
  content: PostContent,
  accounts: ValidationAccount[],
  refusedPaths: Array<Pick<Violation, 'path'>> = [],
): PostWarning[] {
  const platforms = new Set(accounts.map((a) => a.platform))
  const refused = (path: string) => refusedPaths.some((v) => v.path === path || v.path.startsWith(`${path}.`))
  const out: PostWarning[] = []
  for (const { field, uses } of NETWORK_FIELDS) {
    if (!isSet(content[field]) || [...platforms].some(uses) || refused(field)) continue
    const networks = PLATFORM_IDS.filter(uses)
    out.push({
      code: 'not_applicable',
      path: field,
      message: `${field} applies only to ${orList(networks)} accounts and this post has none: it is kept but not published.`,
    })
  }
  for (const key of Object.keys(content.captionOverrides ?? {})) {
    const path = `captionOverrides.${key}`
    if (!(PLATFORM_IDS as readonly string[]).includes(key) || platforms.has(key as PlatformId) || refused(path))
      continue
    out.push({
      code: 'not_applicable',
      path,
      message: `This post has no ${key} account, so its caption override is kept but not published.`,
    })
  }
  return out
}
