import { selectWorkspaceAssetsByIds } from '../../db/queries/media'
import type { Db } from '../../db/types'
import type { PublishMedia, PublishResult, TargetContent } from '../../networks/adapter'
import type { PlatformId } from '../../domain/vocabulary'
import { effectiveFormat, rulesFor } from '../../domain/rules/index'
import type { PostRow } from '../posts/record'
import { explicitTitle, mediaKindOf, targetTitle } from '../../domain/target-title'

/** The pin title when none is set: the caption's first line. */
const firstLine = (text: string) => text.split(/\r\n|\r|\n/, 1)[0]!.trim()

/** What one target publishes: the platform's override or the base caption, its format fallback, its options. */
export async function buildTargetContent(
  db: Db,
  post: PostRow,
  accountId: string,
  platform: PlatformId,
): Promise<TargetContent> {
  const rules = rulesFor(platform)
  const text = post.captionOverrides?.[platform] ?? post.caption ?? ''
  const media = await loadMedia(db, post.workspaceId, post.mediaIds)
  const pinTitle =
    post.pinboardNetOptions && typeof post.pinboardNetOptions.title === 'string' && post.pinboardNetOptions.title
      ? post.pinboardNetOptions.title
      : null
  return {
    platform,
    type: effectiveFormat(platform, post.type),
    text,
    media,
    threadParts: rules.threadModel ? (post.threadParts ?? []) : [],
    firstComment: platform === 'PHOTO_NET' ? post.firstComment : null,
    replyToMicropostId: platform === 'MICROBLOG_NET' ? post.replyToMicropostId : null,
    quoteMicropostId: platform === 'MICROBLOG_NET' ? post.quoteMicropostId : null,
    videoNetOptions:
      platform === 'SHORTVIDEO_NET'
        ? ((post.videoNetOptions?.[accountId] as Record<string, unknown> | undefined) ?? { privacyLevel: 'SELF_ONLY' })
        : null,
    audio: platform === 'PHOTO_NET' ? (post.audio ?? null) : null,
    pinboardBoardId: rules.options.pinboardNetBoards ? destinationOf(post, accountId) : null,
    pinTitle: platform === 'PINBOARD_NET' ? (pinTitle ?? (firstLine(text) || null)) : null,
    linkUrl: post.linkUrl,
    title: targetTitle(rules.title, {
      explicit: explicitTitle(rules.title, { title: post.title, pinTitle }),
      text,
      mediaKind: mediaKindOf(media),
    }),
    destinationId: rules.options.destination ? destinationOf(post, accountId) : null,
    targetOptions: rules.options.fields.length > 0 ? { ...(post.targetOptions?.[accountId] ?? {}) } : {},
  }
}

/**
 * A target whose network needs a destination and has none fails here, in words, before any call:
 * create refuses to schedule it, but a post can reach the publisher without one (a draft published
 * by an older version, an edit racing the schedule).
 */
export function missingDestination(content: TargetContent, accountId: string): PublishResult | null {
  const rule = rulesFor(content.platform).options.destination
  if (rule?.requiredToPublish !== true || content.destinationId !== null) return null
  return {
    status: 'failed',
    kind: 'rejected',
    message: `No ${rule.noun} was chosen for this ${content.platform} account: pick one from GET /v1/accounts/${accountId}/destinations, edit the post, then retry.`,
  }
}

/**
 * `destinations.<accountId>`; on the pinboard network the board in `pinboardNetBoards` (the older
 * spelling of the same choice) when `destinations` has none.
 */
function destinationOf(post: PostRow, accountId: string): string | null {
  const chosen = post.destinations?.[accountId] ?? post.pinboardNetBoards?.[accountId] ?? null
  return chosen !== null && chosen.trim() !== '' ? chosen : null
}

async function loadMedia(db: Db, workspaceId: string, ids: string[]): Promise<PublishMedia[]> {
  if (ids.length === 0) return []
  const rows = await selectWorkspaceAssetsByIds(db, workspaceId, [...new Set(ids)])
  const byId = new Map(rows.map((r) => [r.id, r]))
  return ids.flatMap((id) => {
    const r = byId.get(id)
    if (!r) return []
    return [
      {
        id: r.id,
        type: r.type as 'IMAGE' | 'VIDEO',
        url: r.url,
        mimeType: r.mimeType,
        sizeBytes: r.sizeBytes,
        width: r.width,
        height: r.height,
        durationSec: r.durationSec,
        altText: r.altText,
      },
    ]
  })
}
