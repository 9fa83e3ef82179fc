import { lockPost, lockPostForDelivery, markPostPublishing } from '../../db/queries/publishing-posts'
import { claimDueTarget } from '../../db/queries/targets'
import type { Db, Tx } from '../../db/types'
import type { PostRow, TargetRow } from '../posts/record'

export interface ClaimedTarget {
  target: TargetRow
  post: PostRow
}

/** A delivery may arrive this much before the due time (clock skew between queue and database). */
const EARLY_TOLERANCE_MS = 5_000

/**
 * Claims a target (PENDING -> PUBLISHING, with a lease) before any network call, in one
 * transaction that first locks the post row at the delivery's version: an edit, a reschedule,
 * "publish now" or a delete either happened before (the version or the row is gone: nothing to
 * claim) or waits until the claim is committed (and then sees the target PUBLISHING). A
 * duplicate or early delivery finds nothing to claim. A status check of a pending network job is
 * not counted as a new attempt. The claim names its holder (this Node process, or null on
 * Workers). Lock order everywhere: post, then its targets.
 */
export async function claimTarget(
  db: Db,
  targetId: string,
  version: number,
  now: Date,
  leaseSec: number,
  holder: string | null = null,
): Promise<ClaimedTarget | null> {
  return db.transaction(async (tx) => {
    const post = await lockPostForDelivery(tx, targetId, version)
    if (!post) return null
    const target = await claimDueTarget(tx, targetId, {
      version,
      now,
      leaseUntil: new Date(now.getTime() + leaseSec * 1000),
      dueBy: new Date(now.getTime() + EARLY_TOLERANCE_MS),
      holder,
    })
    if (!target) return null
    if (post.status === 'SCHEDULED') await markPostPublishing(tx, post.id)
    return { target, post: { ...post, status: 'PUBLISHING' } }
  })
}

/** The post row, locked for the rest of the transaction (always before its targets). */
export function lockPostRow(tx: Tx, postId: string): Promise<PostRow | null> {
  return lockPost(tx, postId)
}
