import { and, eq, inArray, lte, sql } from 'drizzle-orm'
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
export async function claimTarget(
  db: Db,
  targetId: string,
  version: number,
  now: Date,
  leaseSec: number,
): Promise<ClaimedTarget | null> {
  return db.transaction(async (tx) => {
    const [post] = await tx
      .select()
      .from(posts)
      .where(
        and(
          sql`${posts.id} = (select t.post_id from targets t where t.id = ${targetId})`,
          eq(posts.version, version),
          inArray(posts.status, ['SCHEDULED', 'PUBLISHING']),
        ),
      )
      .for('update')
    if (!post) return null
    const [target] = await tx
      .update(targets)
      .set({
        status: 'PUBLISHING',
        leaseUntil: new Date(now.getTime() + leaseSec * 1000),
        claimedVersion: version,
        attempts: sql`case when ${targets.progress} -> 'pending' is not null then ${targets.attempts} else ${targets.attempts} + 1 end`,
        updatedAt: now,
      })
      .where(
        and(
          eq(targets.id, targetId),
          eq(targets.status, 'PENDING'),
          lte(targets.dueAt, new Date(now.getTime() + EARLY_TOLERANCE_MS)),
        ),
      )
      .returning()
    if (!target) return null
    if (post.status === 'SCHEDULED') await tx.update(posts).set({ status: 'PUBLISHING' }).where(eq(posts.id, post.id))
    return { target, post: { ...post, status: 'PUBLISHING' } }
  })
}

/** The post row, locked for the rest of the transaction (always before its targets). */
export async function lockPostRow(
  tx: Parameters<Parameters<Db['transaction']>[0]>[0],
  postId: string,
): Promise<PostRow | null> {
  const [row] = await tx.select().from(posts).where(eq(posts.id, postId)).for('update')
  return row ?? null
}
