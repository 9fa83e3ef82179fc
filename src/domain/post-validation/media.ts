/**
 * Media per selected platform, in the format the post is published in there (a format the
 * network does not honour falls back to its default: `effectiveFormat`). Post-level rules
 * here (presence, counts, mixing, equal dimensions); each item's own rules in ./media-item.
 */
import type { PlatformId } from '../vocabulary'
import { effectiveFormat, formatRulesFor, rulesFor } from '../rules/index'
import { count as countOf } from './format'
import { checkItem } from './media-item'
import type { ValidationContext, Violation } from './types'

export function checkMedia(ctx: ValidationContext): Violation[] {
  return ctx.platforms.flatMap((platform) => checkPlatformMedia(ctx, platform))
}

function checkPlatformMedia(ctx: ValidationContext, platform: PlatformId): Violation[] {
  const rules = rulesFor(platform)
  const format = effectiveFormat(platform, ctx.content.type)
  const formatRules = formatRulesFor(platform, ctx.content.type)
  const whole = (message: string, limit?: number, actual?: number): Violation => ({
    code: 'media_not_supported',
    path: 'mediaIds',
    platform,
    message,
    ...(limit !== undefined ? { limit } : {}),
    ...(actual !== undefined ? { actual } : {}),
  })
  const count = ctx.media.length

  if (count === 0) {
    // A draft may still get its media (docs/decisions.md, "Drafts"); a post about to be scheduled,
    // queued or published on a media-only network may not.
    if (!rules.media.allowsTextOnly && ctx.intent === 'publish') {
      return [
        whole(
          `${platform} publishes no text-only posts: add at least one ${formatRules.mediaKinds.join(' or ')}.`,
          formatRules.minItems,
          0,
        ),
      ]
    }
    return []
  }

  const out: Violation[] = []
  const maxItems = Math.min(rules.media.maxItems, formatRules.maxItems)
  if (count > maxItems) {
    out.push(
      whole(
        `The post has ${countOf(count, 'media item')}; ${platform} allows ${maxItems} in a ${format}. Remove ${count - maxItems}.`,
        maxItems,
        count,
      ),
    )
  }
  // Like missing media, a carousel's missing items can still be added to a draft.
  if (count < formatRules.minItems && ctx.intent === 'publish') {
    out.push(
      whole(
        `A ${format} on ${platform} needs at least ${countOf(formatRules.minItems, 'media item')}; the post has ${count}.`,
        formatRules.minItems,
        count,
      ),
    )
  }

  const images = ctx.media.filter((m) => m.kind === 'image').length
  const videos = count - images
  if (!rules.media.mixing && images > 0 && videos > 0) {
    out.push(
      whole(
        `${platform} does not mix images and videos in one post; this one has ${countOf(images, 'image')} and ${countOf(videos, 'video')}.`,
      ),
    )
  }
  const perKind = [
    { n: images, rule: rules.media.image, what: 'image' },
    { n: videos, rule: rules.media.video, what: 'video' },
  ]
  for (const { n, rule, what } of perKind) {
    // Only when tighter than the post-wide cap already checked above.
    if (rule !== null && rule.maxItems < maxItems && n > rule.maxItems) {
      out.push(
        whole(
          `The post has ${countOf(n, what)}; ${platform} allows ${countOf(rule.maxItems, what)} in one post.`,
          rule.maxItems,
          n,
        ),
      )
    }
  }

  for (const placed of ctx.media) out.push(...checkItem(placed, { platform, format, formatRules }))

  if (formatRules.sameDimensions) {
    const sized = ctx.media.filter((m) => m.kind === 'image' && m.item.width !== null && m.item.height !== null)
    const first = sized[0]
    for (const other of sized.slice(1)) {
      if (first && (other.item.width !== first.item.width || other.item.height !== first.item.height)) {
        out.push({
          code: 'media_not_supported',
          path: `mediaIds.${other.index}`,
          platform,
          message: `Item ${other.index + 1} (${other.item.id}) is ${other.item.width} x ${other.item.height}; ${platform} needs every image of a ${format} to match the first (${first.item.width} x ${first.item.height}).`,
        })
      }
    }
  }
  return out
}
