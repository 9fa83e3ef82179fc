/**
 * What one target would publish, as the dry run (`POST /v1/posts/validate`) shows it: the text
 * the engine hands the network (the platform's override, else the base caption, as
 * `buildTargetContent` picks it), its length as that network counts it against the budget the
 * caption rules check, and the format after the platform's fallback (`effectiveFormat`).
 */
import type { MediaKind } from '../rules/schema'
import { captionMaxLength, effectiveFormat, rulesFor } from '../rules/index'
import { countText } from '../text-count'
import type { PlatformId, PostType } from '../vocabulary'
import { captionFor } from './caption'
import type { PostContent, ValidationMedia } from './types'

export interface TargetPreview {
  caption: string
  captionLength: number
  captionLimit: number
  format: PostType
}

/** 'video' when any item is a video, 'image' when all are images, null without media (as the caption rules read it). */
export function mediaKindOf(media: Pick<ValidationMedia, 'type'>[]): MediaKind | null {
  if (media.length === 0) return null
  return media.some((m) => m.type === 'VIDEO') ? 'video' : 'image'
}

/** `account.captionMaxLength`, where the network reported one, is the target's budget instead of the platform's. */
export function previewTarget(
  content: PostContent,
  account: { platform: PlatformId; captionMaxLength?: number | null },
  media: ValidationMedia[],
): TargetPreview {
  const { platform } = account
  const caption = captionFor(content, platform)
  const found = content.mediaIds.flatMap((id) => media.filter((m) => m.id === id).slice(0, 1))
  return {
    caption,
    captionLength: countText(caption, rulesFor(platform).caption),
    captionLimit: account.captionMaxLength ?? captionMaxLength(platform, mediaKindOf(found)),
    format: effectiveFormat(platform, content.type),
  }
}
