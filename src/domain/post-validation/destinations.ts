/**
 * `destinations.<accountId>` and the top-level `title`, read from the rules registry
 * (`options.destination`, `title`), so a new network adds them as data and no code here.
 * - A destination entry is for an account of the post whose network has a destination; any
 *   other entry is 422 `invalid_option` naming `destinations.<accountId>`.
 * - A destination the network needs to publish (`requiredToPublish`) is what a draft may lack:
 *   schedule, queue and publish now refuse a target without one (docs/decisions.md, "Drafts").
 *   On a network that still takes the older field for the same choice (the pinboard network's
 *   `pinboardNetBoards`), either spelling counts, both naming different ids is refused, and a
 *   missing one is reported under the older field, as before.
 * - `title`: over the network's title budget is `title_too_long`; a network that requires a title
 *   refuses, when the post is to go out, a target that has none (neither set nor derived).
 * Whether a destination id exists is the posts service's to check (a network listing).
 */
import { countText } from '../text-count'
import { rulesFor } from '../rules/index'
import { explicitTitle, targetTitle } from '../target-title'
import type { PostContent, ValidationAccount, ValidationContext, Violation } from './types'
import type { PlatformRules } from '../rules/schema'
import type { PlatformId } from '../vocabulary'

export type RulesOf = (platform: PlatformId) => PlatformRules

const invalid = (path: string, message: string, extra: Partial<Violation> = {}): Violation => ({
  code: 'invalid_option',
  path,
  message,
  ...extra,
})

/** The destination chosen for an account: `destinations`, else the older field its network still takes. */
export function destinationOf(
  content: Pick<PostContent, 'destinations' | 'pinboardNetBoards'>,
  account: ValidationAccount,
  rulesOf: RulesOf = rulesFor,
): string | null {
  const older = rulesOf(account.platform).options.pinboardNetBoards
    ? content.pinboardNetBoards?.[account.id]
    : undefined
  const chosen = (content.destinations?.[account.id] ?? older ?? '').trim()
  return chosen === '' ? null : chosen
}

/** `rulesOf` is the registry; a test passes synthetic rules. */
export function checkDestinations(ctx: ValidationContext, rulesOf: RulesOf = rulesFor): Violation[] {
  const out: Violation[] = []
  for (const [accountId, id] of Object.entries(ctx.content.destinations ?? {})) {
    const path = `destinations.${accountId}`
    const account = ctx.accounts.find((a) => a.id === accountId)
    const rule = account ? rulesOf(account.platform).options.destination : null
    if (!account || !rule) {
      const why = account
        ? `is a ${account.platform} account, whose network has no destinations`
        : 'is not among accountIds'
      out.push(invalid(path, `destinations has an entry for ${accountId}, which ${why}.`, { accountId }))
      continue
    }
    const older = rulesOf(account.platform).options.pinboardNetBoards
      ? ctx.content.pinboardNetBoards?.[accountId]
      : undefined
    if (older !== undefined && older.trim() !== '' && older.trim() !== id.trim()) {
      out.push(
        invalid(
          path,
          `destinations.${accountId} (${id}) and pinboardNetBoards.${accountId} (${older}) name different ${rule.nounPlural}; send one of them.`,
          {
            accountId,
            platform: account.platform,
          },
        ),
      )
    }
  }
  if (ctx.intent === 'publish') out.push(...missingDestinations(ctx, rulesOf))
  return out
}

function missingDestinations(ctx: ValidationContext, rulesOf: RulesOf): Violation[] {
  return ctx.accounts.flatMap((account) => {
    const options = rulesOf(account.platform).options
    // The older field reports its own missing entry (options.ts, checkPinboard).
    if (options.destination?.requiredToPublish !== true || options.pinboardNetBoards !== null) return []
    if (destinationOf(ctx.content, account, rulesOf) !== null) return []
    const { noun } = options.destination
    return [
      invalid(
        `destinations.${account.id}`,
        `${account.platform} account ${account.id} has no ${noun}; pick one from GET /v1/accounts/${account.id}/destinations, or save the post as a draft.`,
        { accountId: account.id, platform: account.platform },
      ),
    ]
  })
}

export function checkTitle(ctx: ValidationContext, rulesOf: RulesOf = rulesFor): Violation[] {
  const out: Violation[] = []
  for (const platform of ctx.platforms) {
    const rule = rulesOf(platform).title
    if (rule === null || rule.field !== 'title') continue
    if (rule.media !== null && rule.media !== ctx.mediaKind) continue
    const title = ctx.content.title?.trim() ?? ''
    const length = countText(title, rule)
    if (length > rule.maxLength) {
      out.push({
        code: 'title_too_long',
        path: 'title',
        platform,
        limit: rule.maxLength,
        actual: length,
        message: `The title is ${length} characters; ${platform} allows ${rule.maxLength}.`,
      })
      continue
    }
    if (ctx.intent !== 'publish' || !rule.required) continue
    const text = ctx.content.captionOverrides?.[platform] ?? ctx.content.caption ?? ''
    const explicit = explicitTitle(rule, { title: ctx.content.title, pinTitle: null })
    if (targetTitle(rule, { explicit, text, mediaKind: ctx.mediaKind }) === null) {
      out.push(invalid('title', `${platform} needs a title; set title, or save the post as a draft.`, { platform }))
    }
  }
  return out
}
