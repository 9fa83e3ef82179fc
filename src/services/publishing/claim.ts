import { eq, sql } from 'drizzle-orm'
import { posts, targets } from '../../db/schema'
import type { Db } from '../../db/types'
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
 * not counted as a new attempt. Lock order everywhere: post, then its targets.
 */
export async function claimTarget(db: Db, targetId: string, version: number, now: Date, leaseSec: number): Promise<ClaimedTarget | null> {
  const lease = new Date(now.getTime() + leaseSec * 1000).toISOString()
  const dueBy = new Date(now.getTime() + EARLY_TOLERANCE_MS).toISOString()
  // One statement: lock the post at this version, claim the target, move a SCHEDULED post to PUBLISHING.
  const claimed = await db.execute(sql`
    with p as (
      select id from posts
      where id = (select post_id from targets where id = ${targetId}) and version = ${version} and status in ('SCHEDULED', 'PUBLISHING')
      for update
    ), t as (
      update targets set
        status = 'PUBLISHING',
        lease_until = ${lease}::timestamptz,
        claimed_version = ${version},
        attempts = case when targets.progress -> 'pending' is not null then targets.attempts else targets.attempts + 1 end,
        updated_at = ${now.toISOString()}::timestamptz
      from p
      where targets.id = ${targetId} and targets.post_id = p.id and targets.status = 'PENDING' and targets.due_at <= ${dueBy}::timestamptz
      returning targets.id, targets.post_id
    ), moved as (
      update posts set status = 'PUBLISHING' from t where posts.id = t.post_id and posts.status = 'SCHEDULED' returning posts.id
    )
    select t.post_id as "postId", (select count(*) from moved) as moved from t`)
  const row = (claimed as unknown as { rows: Array<{ postId: string }> }).rows[0]
  if (!row) return null
  const [[target], [post]] = await Promise.all([
    db.select().from(targets).where(eq(targets.id, targetId)),
    db.select().from(posts).where(eq(posts.id, row.postId)),
  ])
  if (!target || !post) return null
  return { target, post: { ...post, status: 'PUBLISHING' } }
}

/** The post row, locked for the rest of the transaction (always before its targets). */
export async function lockPostRow(tx: Parameters<Parameters<Db['transaction']>[0]>[0], postId: string): Promise<PostRow | null> {
  const [row] = await tx.select().from(posts).where(eq(posts.id, postId)).for('update')
  return row ?? null
}
