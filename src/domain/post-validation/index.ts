/**
 * Post validation: every rule of the registry (`src/domain/rules/`) that a post's content
 * can break, checked at once on create and edit, before anything is stored or queued. Pure:
 * no database, no HTTP; the posts service loads accounts and media and maps the violations
 * to one 422 answer (docs/decisions.md, "Errors": one `details` entry per violation).
 *
 * Rule modules: ./caption (caption budgets, hashtag and mention caps), ./thread
 * (`threadParts`), ./media and ./media-item (media per platform and format), ./options
 * (network-specific fields). ./warnings and ./unknown-fields find what a write accepts but
 * reports back (never blocking it); ./preview shows what each target would publish (the dry run).
 */
import type { MediaKind } from '../rules/schema'
import { checkCaptions } from './caption'
import { checkMedia } from './media'
import { checkOptions } from './options'
import { checkThread } from './thread'
import { mediaKindOf } from './preview'
import type { PlacedMedia, ValidationContext, ValidationInput, Violation } from './types'

export type {
  PostContent,
  ValidationAccount,
  ValidationContext,
  ValidationInput,
  ValidationIntent,
  ValidationMedia,
  VideoNetAccountOptions,
  Violation,
  PostWarning,
} from './types'
export { previewTarget, type TargetPreview } from './preview'
export { notApplicableWarnings } from './warnings'
export { unknownFieldWarnings } from './unknown-fields'
export { captionFor, captionPath } from './caption'
export { micropostIdFrom } from './micropost'
export { accountsWithoutBoard } from './options'

/** Every violation of `input.content` for its accounts and media; `[]` when the post is valid. */
export function validatePostContent(input: ValidationInput): Violation[] {
  const { ctx, missing } = contextOf(input)
  return [...missing, ...checkCaptions(ctx), ...checkThread(ctx), ...checkMedia(ctx), ...checkOptions(ctx)]
}

/** Derived values every rule reads; an id of `mediaIds` without an asset is `media_not_found`. */
function contextOf(input: ValidationInput): { ctx: ValidationContext; missing: Violation[] } {
  const { content, accounts, intent } = input
  const platforms = [...new Set(accounts.map((a) => a.platform))]
  const media: PlacedMedia[] = []
  const missing: Violation[] = []
  content.mediaIds.forEach((id, index) => {
    const item = input.media.find((m) => m.id === id)
    if (item) media.push({ index, item, kind: item.type === 'VIDEO' ? 'video' : 'image' })
    else
      missing.push({
        code: 'media_not_found',
        path: `mediaIds.${index}`,
        message: `Media ${id} was not found in this workspace.`,
      })
  })
  const mediaKind: MediaKind | null = mediaKindOf(media.map((m) => m.item))
  return { ctx: { content, accounts, intent, platforms, media, mediaKind }, missing }
}
