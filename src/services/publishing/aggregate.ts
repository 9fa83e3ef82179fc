import { and, eq, sql } from 'drizzle-orm'
import { posts, targets } from '../../db/schema'
import type { Tx } from '../../db/types'
import type { PostRow } from '../posts/record'
import { scheduleNextOccurrence } from './recurrence'

/**
 * The post's status from its targets (contract.md): all PUBLISHED -> PUBLISHED; any still
 * PENDING or PUBLISHING -> PUBLISHING; all settled with a FAILED one -> FAILED. Runs under the
 * post's row lock, so two targets settling at once cannot both read a stale picture.
 * Returns the post before and after, for what follows a settle (recurrence).
 */
export async function refreshPostStatus(tx: Tx, postId: string, now: Date, locked?: PostRow): Promise<{ before: PostRow; after: PostRow } | null> {
  // Callers lock the post first (before touching its targets) and may hand the locked row over;
  // with the lock held, this one statement reads every target's settled state.
  const before = locked ?? (await tx.select().from(posts).where(eq(posts.id, postId)).for('update'))[0]
  if (!before) return null
  const ofPost = sql`from targets where post_id = ${postId}`
  const allPublished = sql`(select count(*) > 0 and bool_and(status = 'PUBLISHED') ${ofPost})`
  const [after] = await tx
    .update(posts)
    .set({
      status: sql`case when ${allPublished} then 'PUBLISHED'
        when (select bool_or(status in ('PENDING', 'PUBLISHING')) ${ofPost}) then 'PUBLISHING' else 'FAILED' end`,
      publishedAt: sql`case when ${allPublished} then (select max(published_at) ${ofPost}) else ${posts.publishedAt} end`,
      updatedAt: now,
    })
    .where(eq(posts.id, postId))
    .returning()
  return after ? { before, after } : null
}

/** Settled: nothing of the post is still on its way. */
export const isSettled = (status: string) => status === 'PUBLISHED' || status === 'FAILED'

/**
 * After a target settles: the post's status from its targets, and for a recurring post that
 * has settled with anything published, its next occurrence (created once: a later settle finds
 * the child). Returns the new occurrence's id, if one was made.
 */
export async function settlePost(tx: Tx, postId: string, now: Date, locked?: PostRow): Promise<string | null> {
  const refreshed = await refreshPostStatus(tx, postId, now, locked)
  if (!refreshed || !isSettled(refreshed.after.status) || !refreshed.after.recurrence) return null
  const published = await tx.select({ id: targets.id }).from(targets).where(and(eq(targets.postId, postId), eq(targets.status, 'PUBLISHED'))).limit(1)
  return published.length > 0 ? scheduleNextOccurrence(tx, refreshed.after, now) : null
}
