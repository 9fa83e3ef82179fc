/**
 * Captions: the text each selected platform publishes (its override, else the base caption),
 * measured with that platform's counting and its media-dependent budget, plus the hashtag and
 * mention caps and what the network needs to publish anything at all.
 */
import { countHashtags, countMentions, firstLine } from '../text-count'
import type { PlatformId } from '../vocabulary'
import { captionMaxLength, rulesFor } from '../rules/index'
import { checkTextBudget } from './budget'
import type { PostContent, ValidationContext, Violation } from './types'

/** The platform's entry in `captionOverrides`, if it has one (an empty string is an entry). */
function overrideFor(content: PostContent, platform: PlatformId): string | null {
  const value = content.captionOverrides?.[platform]
  return typeof value === 'string' ? value : null
}

/** The text each platform publishes: its override, else the base caption. */
export function captionFor(content: PostContent, platform: PlatformId): string {
  return overrideFor(content, platform) ?? content.caption ?? ''
}

/** The body field that holds the text `platform` publishes. */
export function captionPath(content: PostContent, platform: PlatformId): string {
  return overrideFor(content, platform) === null ? 'caption' : `captionOverrides.${platform}`
}

export function checkCaptions(ctx: ValidationContext): Violation[] {
  return ctx.platforms.flatMap((platform) => checkCaption(ctx, platform))
}

function checkCaption(ctx: ValidationContext, platform: PlatformId): Violation[] {
  const rules = rulesFor(platform)
  const text = captionFor(ctx.content, platform)
  const path = captionPath(ctx.content, platform)
  const isOverride = path !== 'caption'
  const label = isOverride ? `The ${platform} caption (captionOverrides.${platform})` : 'Caption'
  const hint = isOverride
    ? ' Shorten the override.'
    : ` Shorten it, or give ${platform} its own text in captionOverrides.${platform}.`
  const { maxLength, limitNote } = budgetOf(ctx, platform)
  const out = checkTextBudget(
    text,
    { ...rules.caption, maxLength },
    { code: 'caption_too_long', path, platform, label, limitNote, hint },
  )

  const caps = [
    { what: 'hashtags', max: rules.caption.maxHashtags, actual: countHashtags(text) },
    { what: '@mentions', max: rules.caption.maxMentions, actual: countMentions(text) },
  ]
  for (const { what, max, actual } of caps) {
    if (max !== null && actual > max) {
      out.push({
        code: 'caption_too_long',
        path,
        platform,
        limit: max,
        actual,
        message: `${label} has ${actual} ${what}; ${platform} allows ${max}.${isOverride ? '' : ` Remove some, or give ${platform} its own text in captionOverrides.${platform}.`}`,
      })
    }
  }

  if (ctx.intent === 'publish') out.push(...publishNeeds(ctx, platform, text, path))
  return out
}

/**
 * The platform's budget for this post's media, or, where the network reported a budget for the
 * accounts the post goes to (a paid tier's long posts), the smallest of theirs: one caption goes to
 * every account of the platform, so it must fit each of them.
 */
function budgetOf(ctx: ValidationContext, platform: PlatformId): { maxLength: number; limitNote: string } {
  const standard = captionMaxLength(platform, ctx.mediaKind)
  const budgets = ctx.accounts
    .filter((a) => a.platform === platform)
    .map((a) => ({ id: a.id, maxLength: a.captionMaxLength ?? standard }))
  const smallest = budgets.reduce((min, b) => (b.maxLength < min.maxLength ? b : min), budgets[0]!)
  if (budgets.some((b) => b.maxLength !== standard)) {
    const reported = smallest.maxLength !== standard
    return {
      maxLength: smallest.maxLength,
      limitNote: reported
        ? ` for account ${smallest.id} (the caption budget its network reported)`
        : ` for account ${smallest.id} (its caption budget; it has no long-post tier)`,
    }
  }
  const note =
    standard === rulesFor(platform).caption.maxLength
      ? ''
      : ctx.mediaKind === 'video'
        ? ' on a post with video'
        : ' on a post with images'
  return { maxLength: standard, limitNote: note }
}

/**
 * A link post with its own title: what a network with a title field and a link (a forum's link
 * submission, a community's link post) publishes with no caption at all.
 */
function isTitledLink(ctx: ValidationContext, platform: PlatformId): boolean {
  const rules = rulesFor(platform)
  const has = (v: string | null | undefined) => typeof v === 'string' && v.trim() !== ''
  return (
    rules.title?.field === 'title' &&
    rules.options.linkUrl !== null &&
    has(ctx.content.title) &&
    has(ctx.content.linkUrl)
  )
}

/**
 * What a draft may lack but a scheduled or published post may not. A text-only post needs
 * text (a post with no media and no text has nothing to publish, unless it is a titled link
 * where the network takes one); a network that publishes
 * the caption's first line as a required title needs that line. Media-only networks without
 * media are reported by the media rules instead.
 */
function publishNeeds(ctx: ValidationContext, platform: PlatformId, text: string, path: string): Violation[] {
  const rules = rulesFor(platform)
  if (ctx.media.length === 0) {
    if (rules.media.allowsTextOnly && text.trim() === '' && !isTitledLink(ctx, platform)) {
      return [
        {
          code: 'invalid_option',
          path,
          platform,
          message: `${platform} has nothing to publish: add a caption or media.`,
        },
      ]
    }
    return []
  }
  const title = rules.title
  const titleApplies = title !== null && (title.media === null || title.media === ctx.mediaKind)
  if (titleApplies && title.required && title.field === null && firstLine(text) === '') {
    return [
      {
        code: 'invalid_option',
        path,
        platform,
        message: `${platform} publishes the caption's first line as the title, which it requires: start the caption with a title line.`,
      },
    ]
  }
  return []
}
