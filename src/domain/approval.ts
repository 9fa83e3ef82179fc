import type { ActorRef } from './access'

/**
 * A post's approval as the `posts.approval` column keeps it: who submitted which version and what
 * was asked for (schedule, queue or publish now once approved), and who decided, when, with what comment.
 */
export interface StoredApproval {
  state: 'IN_REVIEW' | 'APPROVED' | 'CHANGES_REQUESTED'
  submittedBy: ActorRef
  submittedAt: string
  intent: { action: 'schedule' | 'queue' | 'now'; scheduledAt: string | null } | null
  note: string | null
  decidedBy: ActorRef | null
  decidedAt: string | null
  comment: string | null
  /** The post version that was submitted. */
  version: number
}
