/**
 * The optional body fields that belong to particular networks. Their format (an http(s) URL,
 * a post id or URL, the pin title's length) is checked whatever the targets, because the API
 * documents it as a property of the field; a per-network limit only where that network is targeted.
 * Entries keyed by account must name an account of this post on the network they are for.
 * Otherwise a field for a network the post does not target is ignored, not an error.
 */
import { countText } from '../text-count'
import { PLATFORM_IDS, type PlatformId } from '../vocabulary'
import { RULES, effectiveFormat, rulesFor } from '../rules/index'
import { orList } from './format'
import { micropostIdFrom } from './micropost'
import type { ValidationContext, Violation } from './types'
import { checkDestinations, checkTitle, destinationOf } from './destinations'
import { checkTargetOptions } from './target-options'

export function checkOptions(ctx: ValidationContext): Violation[] {
  return [
    ...checkOverrideKeys(ctx),
    ...checkLinkUrl(ctx),
    ...checkMicroposts(ctx),
    ...checkVideoNetOptions(ctx),
    ...checkAudio(ctx),
    ...checkFirstComment(ctx),
    ...checkPinboard(ctx),
    ...checkDestinations(ctx),
    ...checkTitle(ctx),
    ...checkTargetOptions(ctx),
  ]
}

const option = (path: string, message: string, extra: Partial<Violation> = {}): Violation => ({
  code: 'invalid_option',
  path,
  message,
  ...extra,
})

function checkOverrideKeys(ctx: ValidationContext): Violation[] {
  const keys = Object.keys(ctx.content.captionOverrides ?? {})
  return keys
    .filter((k) => !(PLATFORM_IDS as readonly string[]).includes(k))
    .map((k) =>
      option(
        `captionOverrides.${k}`,
        `captionOverrides has an entry for "${k}", which is not a platform id; use one listed by GET /v1/platforms.`,
      ),
    )
}

function checkLinkUrl(ctx: ValidationContext): Violation[] {
  const link = ctx.content.linkUrl
  if (link === null) return []
  if (!isHttpUrl(link)) return [option('linkUrl', 'linkUrl must be an absolute http:// or https:// URL.')]
  const out: Violation[] = []
  for (const platform of ctx.platforms) {
    const max = rulesFor(platform).options.linkUrl?.maxLength ?? null
    if (max !== null && link.length > max) {
      out.push(
        option('linkUrl', `linkUrl is ${link.length} characters; ${platform} allows ${max}.`, {
          platform,
          limit: max,
          actual: link.length,
        }),
      )
    }
  }
  return out
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== ''
  } catch {
    return false
  }
}

function checkMicroposts(ctx: ValidationContext): Violation[] {
  const fields = ['replyToMicropostId', 'quoteMicropostId'] as const
  return fields.flatMap((field) => {
    const value = ctx.content[field]
    if (value === null || micropostIdFrom(value) !== null) return []
    return [
      option(field, `${field} must be a post id (digits) or a post URL such as https://x.com/<user>/status/<id>.`),
    ]
  })
}

/** Accounts of this post whose platform passes `has`. */
function accountsWith(ctx: ValidationContext, has: (platform: PlatformId) => boolean) {
  return ctx.accounts.filter((a) => has(a.platform))
}

function checkVideoNetOptions(ctx: ValidationContext): Violation[] {
  const entries = Object.entries(ctx.content.videoNetOptions ?? {})
  const out: Violation[] = []
  for (const [accountId, opts] of entries) {
    const path = `videoNetOptions.${accountId}`
    const account = ctx.accounts.find((a) => a.id === accountId)
    const rules = account ? rulesFor(account.platform).options.videoNetOptions : null
    if (!account || !rules) {
      const why = account ? `is a ${account.platform} account` : 'is not among accountIds'
      out.push(
        option(
          path,
          `videoNetOptions has an entry for ${accountId}, which ${why}; entries are for the post's SHORTVIDEO_NET accounts only.`,
          { accountId },
        ),
      )
      continue
    }
    const level = opts?.privacyLevel
    if (level !== undefined && !(rules.privacyLevels as readonly string[]).includes(level)) {
      out.push(
        option(`${path}.privacyLevel`, `privacyLevel "${level}" is not one of ${orList(rules.privacyLevels)}.`, {
          platform: account.platform,
          accountId,
        }),
      )
    }
  }
  return out
}

/**
 * `audio` goes with a reel, through an account connection that supports it (PHOTO_NET via
 * SOCIALGRAPH_LOGIN); one such account is enough, the others publish without it. The volumes
 * are not bounded here: no primary source states the network's range (secondary sources say
 * 0 to 100), so the request schema's bounds are all there is.
 */
function checkAudio(ctx: ValidationContext): Violation[] {
  if (ctx.content.audio === null) return []
  const candidates = accountsWith(ctx, (p) => rulesFor(p).options.audio !== null)
  const networks = PLATFORM_IDS.filter((p) => RULES[p].options.audio !== null)
  if (candidates.length === 0) {
    return [
      option('audio', `audio applies only to ${orList(networks)} accounts, and this post has none; remove audio.`),
    ]
  }
  const out: Violation[] = []
  const formatOk = candidates.filter((a) =>
    rulesFor(a.platform).options.audio?.formats.includes(effectiveFormat(a.platform, ctx.content.type)),
  )
  if (formatOk.length === 0) {
    const formats = [...new Set(candidates.flatMap((a) => rulesFor(a.platform).options.audio?.formats ?? []))]
    out.push(
      option(
        'audio',
        `audio applies only to ${orList(formats)} posts; this post is ${ctx.content.type === 'IMAGE' ? 'an' : 'a'} ${ctx.content.type}.`,
      ),
    )
  }
  const connected = candidates.filter((a) => rulesFor(a.platform).options.audio?.connections.includes(a.connection))
  if (connected.length === 0) {
    const first = candidates[0]!
    const connections = rulesFor(first.platform).options.audio?.connections ?? []
    out.push(
      option(
        'audio',
        `audio needs a ${first.platform} account connected through ${orList(connections)}; ${first.id} is connected through ${first.connection}. Reconnect it that way or remove audio.`,
        {
          platform: first.platform,
          accountId: first.id,
        },
      ),
    )
  }
  return out
}

/** `firstComment`: posted under the head post where the network takes one (PHOTO_NET), never on a story. */
function checkFirstComment(ctx: ValidationContext): Violation[] {
  const comment = ctx.content.firstComment
  if (comment === null || comment.trim() === '') return []
  const out: Violation[] = []
  for (const platform of ctx.platforms) {
    const rule = rulesFor(platform).options.firstComment
    if (rule === null) continue
    const format = effectiveFormat(platform, ctx.content.type)
    if (!rule.formats.includes(format)) {
      out.push(
        option(
          'firstComment',
          `${platform} posts no first comment on a ${format}; remove firstComment or choose ${orList(rule.formats)}.`,
          { platform },
        ),
      )
      continue
    }
    const length = countText(comment, { counting: rule.counting })
    if (length > rule.maxLength) {
      out.push({
        code: 'caption_too_long',
        path: 'firstComment',
        platform,
        limit: rule.maxLength,
        actual: length,
        message: `firstComment is ${length} characters; ${platform} allows ${rule.maxLength} in a comment.`,
      })
    }
  }
  return out
}

/**
 * Pinboard fields (docs/decisions.md, "Drafts"): a board is what a draft may still lack, so it
 * is required once the post is scheduled, queued or published (422 here, when the caller can
 * still fix it), and a draft saves without it. The publisher still fails a pinboard target that
 * reaches it without a board.
 * Entries that name no pinboard account of this post are refused whatever the intent.
 */
function checkPinboard(ctx: ValidationContext): Violation[] {
  const out: Violation[] = []
  if (ctx.intent === 'publish') {
    for (const accountId of accountsWithoutBoard(ctx)) {
      out.push(
        option(
          `pinboardNetBoards.${accountId}`,
          `Pinboard account ${accountId} has no board; pick one from GET /v1/accounts/${accountId}/boards, or save the post as a draft.`,
          { accountId, platform: 'PINBOARD_NET' },
        ),
      )
    }
  }
  for (const accountId of Object.keys(ctx.content.pinboardNetBoards ?? {})) {
    const account = ctx.accounts.find((a) => a.id === accountId)
    if (!account || rulesFor(account.platform).options.pinboardNetBoards === null) {
      const why = account ? `is a ${account.platform} account` : 'is not among accountIds'
      out.push(
        option(
          `pinboardNetBoards.${accountId}`,
          `pinboardNetBoards has an entry for ${accountId}, which ${why}; entries are for the post's PINBOARD_NET accounts only.`,
          { accountId },
        ),
      )
    }
  }

  const title = ctx.content.pinboardNetOptions?.title ?? null
  const pinboard = RULES.PINBOARD_NET
  const max = pinboard.options.pinboardNetOptions?.titleMaxLength ?? null
  if (title !== null && max !== null) {
    const length = countText(title, pinboard.title ?? { counting: 'characters' })
    if (length > max) {
      out.push({
        code: 'pin_title_too_long',
        path: 'pinboardNetOptions.title',
        platform: 'PINBOARD_NET',
        limit: max,
        actual: length,
        message: `The pin title is ${length} characters; PINBOARD_NET allows ${max}.`,
      })
    }
  }
  return out
}

/** Accounts of a network that needs a board (PINBOARD_NET) and have none in `pinboardNetBoards` or `destinations`. */
export function accountsWithoutBoard(ctx: Pick<ValidationContext, 'accounts' | 'content'>): string[] {
  return ctx.accounts
    .filter((a) => rulesFor(a.platform).options.pinboardNetBoards?.requiredToPublish === true)
    .filter((a) => destinationOf(ctx.content, a) === null)
    .map((a) => a.id)
}
