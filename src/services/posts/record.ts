import type { posts, targets } from '../../db/schema'
import type { PlatformId, PostStatus, PostType, TargetStatus } from '../../domain/vocabulary'

export type PostRow = typeof posts.$inferSelect
export type TargetRow = typeof targets.$inferSelect

export interface TargetRecord {
  id: string
  accountId: string
  platform: PlatformId
  status: TargetStatus
  permalink: string | null
  platformPostId: string | null
  error: { code: string; message: string; retryable: boolean } | null
  publishedAt: string | null
  attempts: number
}

export interface PostRecord {
  id: string
  status: PostStatus
  type: PostType
  caption: string | null
  captionOverrides: Record<string, string> | null
  accountIds: string[]
  mediaIds: string[]
  scheduledAt: string | null
  publishedAt: string | null
  threadParts: string[] | null
  firstComment: string | null
  replyToMicropostId: string | null
  quoteMicropostId: string | null
  videoNetOptions: Record<string, any> | null
  audio: any
  pinboardNetBoards: Record<string, string> | null
  pinboardNetOptions: any
  linkUrl: string | null
  recurrence: any
  queued: boolean
  createdAt: string
  updatedAt: string
  targets: TargetRecord[]
}

const iso = (d: Date | null) => (d ? d.toISOString() : null)

/** The series fields a caller set, which occurrence this is, and the previous one. */
function recurrenceRecord(p: PostRow) {
  const { anchor: _anchor, occurrence, ...series } = p.recurrence!
  return { ...series, occurrence: occurrence ?? 1, parentId: p.recurrenceParentId }
}

export function toTargetRecord(t: TargetRow): TargetRecord {
  return {
    id: t.id,
    accountId: t.accountId,
    platform: t.platform,
    status: t.status,
    permalink: t.permalink,
    platformPostId: t.platformPostId,
    error: t.error ?? null,
    publishedAt: iso(t.publishedAt),
    attempts: t.attempts,
  }
}

/** The contract's post record: every field present, `null` where unset, targets in the caller's order. */
export function toPostRecord(p: PostRow, postTargets: TargetRow[]): PostRecord {
  const ordered = [...postTargets].sort((a, b) => a.position - b.position)
  return {
    id: p.id,
    status: p.status,
    type: p.type,
    caption: p.caption,
    captionOverrides: p.captionOverrides ?? null,
    accountIds: ordered.map((t) => t.accountId),
    mediaIds: p.mediaIds,
    scheduledAt: iso(p.scheduledAt),
    publishedAt: iso(p.publishedAt),
    threadParts: p.threadParts ?? null,
    firstComment: p.firstComment,
    replyToMicropostId: p.replyToMicropostId,
    quoteMicropostId: p.quoteMicropostId,
    videoNetOptions: p.videoNetOptions ?? null,
    audio: p.audio ?? null,
    pinboardNetBoards: p.pinboardNetBoards ?? null,
    pinboardNetOptions: p.pinboardNetOptions ?? null,
    linkUrl: p.linkUrl,
    recurrence: p.recurrence ? recurrenceRecord(p) : null,
    queued: p.queued,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
    targets: ordered.map(toTargetRecord),
  }
}
