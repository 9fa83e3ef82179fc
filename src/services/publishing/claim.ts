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
 * Claims a target with one conditional UPDATE (PENDING -> PUBLISHING, with a lease) before any
 * network call. A duplicate or late delivery, a delivery for an older version of the post
 * (edited, rescheduled), or one for a deleted post finds nothing to claim and does nothing.
 * A status check of a pending network job is not counted as a new attempt.
 */
export async function claimTarget(db: Db, targetId: string, version: number, now: Date, leaseSec: number): Promise<ClaimedTarget | null> {
  const [target] = await db
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
        sql`exists (select 1 from posts p where p.id = ${targets.postId} and p.version = ${version} and p.status in ('SCHEDULED', 'PUBLISHING'))`,
      ),
    )
    .returning()
  if (!target) return null
  const [post] = await db
    .update(posts)
    .set({ status: 'PUBLISHING' })
    .where(and(eq(posts.id, target.postId), inArray(posts.status, ['SCHEDULED', 'PUBLISHING'])))
    .returning()
  if (post) return { target, post }
  const [current] = await db.select().from(posts).where(eq(posts.id, target.postId))
  return current ? { target, post: current } : null
}
