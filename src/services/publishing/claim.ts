import { lockPost, lockPostForDelivery, markPostPublishing } from '../../db/queries/publishing-posts'
import { claimDueTargets, lockPostsOfTargets, selectExistingTargetIds } from '../../db/queries/target-claims'
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

/** What a batch claim did with each delivery, by its index in the batch. */
export interface BatchClaim {
  /** The claimed target and its post, or null: nothing to claim (claimed already, early, edited, gone). */
  claimed: Array<ClaimedTarget | null>
  /** Deliveries whose post another transaction held (skipped, not waited for): for the single claim. */
  busy: number[]
}

/**
 * `claimTarget` for many deliveries in one transaction and a few statements (the in-process queue):
 * their posts locked first (FOR UPDATE SKIP LOCKED, in id order), each delivery's version and its
 * post's status checked, then every due PENDING target among them moved to PUBLISHING under one
 * lease and holder, and their SCHEDULED posts to PUBLISHING, in one statement. A post locked elsewhere is skipped rather than waited for; its
 * deliveries come back as `busy`, for `claimTarget`, which waits. A target delivered twice in the
 * batch is claimed for the first of its deliveries only.
 */
export async function claimTargetBatch(
  db: Db,
  deliveries: Array<{ targetId: string; version: number }>,
  now: Date,
  leaseSec: number,
  holder: string | null = null,
): Promise<BatchClaim> {
  const ids = [...new Set(deliveries.map((d) => d.targetId))]
  return db.transaction(async (tx) => {
    const locked = new Map((await lockPostsOfTargets(tx, ids)).map((r) => [r.targetId, r.post]))
    const elsewhere = await selectExistingTargetIds(
      tx,
      ids.filter((id) => !locked.has(id)),
    )
    const claimable = deliveries.filter((d) => {
      const post = locked.get(d.targetId)
      return post && post.version === d.version && (post.status === 'SCHEDULED' || post.status === 'PUBLISHING')
    })
    const rows = await claimDueTargets(tx, [...new Set(claimable.map((d) => d.targetId))], {
      now,
      leaseUntil: new Date(now.getTime() + leaseSec * 1000),
      dueBy: new Date(now.getTime() + EARLY_TOLERANCE_MS),
      holder,
    })
    const byId = new Map(rows.map((t) => [t.id, t]))
    const busy: number[] = []
    const claimed = deliveries.map((d, i): ClaimedTarget | null => {
      if (!locked.has(d.targetId) && elsewhere.has(d.targetId)) busy.push(i)
      const target = byId.get(d.targetId)
      const post = locked.get(d.targetId)
      if (!target || !post || post.version !== d.version) return null
      byId.delete(d.targetId)
      return { target, post: { ...post, status: 'PUBLISHING' } }
    })
    return { claimed, busy }
  })
}

/** The post row, locked for the rest of the transaction (always before its targets). */
export function lockPostRow(tx: Tx, postId: string): Promise<PostRow | null> {
  return lockPost(tx, postId)
}
