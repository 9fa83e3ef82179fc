import type { PostRow, TargetRow } from '../../db/queries/posts'
import type { ContentFields, Recurrence } from '../../domain/post-content'
import type { ActorRef } from '../../domain/access'
import type { StoredApproval } from '../../domain/approval'
import type { PlatformId, PostSource, PostStatus, PostType, TargetError, TargetStatus } from '../../domain/vocabulary'
import { contentFieldsOf } from './content'
import type { PostLabel } from '../labels/labels'

export type { PostRow, TargetRow }

export interface TargetRecord {
  id: string
  accountId: string
  platform: PlatformId
  status: TargetStatus
  permalink: string | null
  platformPostId: string | null
  error: TargetError | null
  publishedAt: string | null
  attempts: number
}

/** The API's post record: every content field present (`null` where unset), the series with its place in it. */
export interface PostRecord extends Omit<ContentFields, 'recurrence'> {
  id: string
  status: PostStatus
  /** 'external': an imported post, read-only through the service. */
  source: PostSource
  type: PostType
  accountIds: string[]
  mediaIds: string[]
  scheduledAt: string | null
  publishedAt: string | null
  recurrence: (Recurrence & { occurrence: number; parentId: string | null }) | null
  queued: boolean
  /** Raised by every edit, publish and approval with an action; a reviewer sends back the one seen. */
  version: number
  /** The last approval round (kept after an edit sends the post back to DRAFT). */
  approval: StoredApproval | null
  /** The workspace, or a group of one of the post's accounts, requires approval. */
  approvalRequired: boolean
  createdBy: ActorRef | null
  createdAt: string
  updatedAt: string
  targets: TargetRecord[]
  /** Its labels, by name. */
  labels: PostLabel[]
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

/**
 * The API's post record: every field present, `null` where unset, targets in the caller's order.
 * `approvalRequired`: from the workspace's approval scope (posts/approval-gate.ts); `labels`: the post's labels.
 */
export function toPostRecord(
  p: PostRow,
  postTargets: TargetRow[],
  approvalRequired = false,
  labels: PostLabel[] = [],
): PostRecord {
  const ordered = [...postTargets].sort((a, b) => a.position - b.position)
  return {
    id: p.id,
    status: p.status,
    source: p.source,
    type: p.type,
    ...contentFieldsOf(p),
    accountIds: ordered.map((t) => t.accountId),
    mediaIds: p.mediaIds,
    scheduledAt: iso(p.scheduledAt),
    publishedAt: iso(p.publishedAt),
    recurrence: p.recurrence ? recurrenceRecord(p) : null,
    queued: p.queued,
    version: p.version,
    approval: (p.approval as StoredApproval | null) ?? null,
    approvalRequired,
    createdBy: (p.createdBy as ActorRef | null) ?? null,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
    targets: ordered.map(toTargetRecord),
    labels,
  }
}
