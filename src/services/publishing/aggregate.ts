import { and, eq } from 'drizzle-orm'
import { posts, targets } from '../../db/schema'
import type { Tx } from '../../db/types'
import type { PostStatus } from '../../domain/vocabulary'
import type { PostRow } from '../posts/record'
import { scheduleNextOccurrence } from './recurrence'

/**
 * The post's status from its targets (contract.md): all PUBLISHED -> PUBLISHED; any still
 * PENDING or PUBLISHING -> PUBLISHING; all settled with a FAILED one -> FAILED. Runs under the
 * post's row lock, so two targets settling at once cannot both read a stale picture.
 * Returns the post before and after, for what follows a settle (recurrence).
 */
export async function refreshPostStatus(
  tx: Tx,
  postId: string,
  now: Date,
  locked?: PostRow,
): Promise<{ before: PostRow; after: PostRow } | null> {
  // Callers lock the post first (before touching its targets) and may hand the locked row over.
  const before = locked ?? (await tx.select().from(posts).where(eq(posts.id, postId)).for('update'))[0]
  if (!before) return null
  const rows = await tx
    .select({ status: targets.status, publishedAt: targets.publishedAt })
    .from(targets)
    .where(eq(targets.postId, postId))
  let status: PostStatus
  if (rows.length > 0 && rows.every((r) => r.status === 'PUBLISHED')) status = 'PUBLISHED'
  else if (rows.some((r) => r.status === 'PENDING' || r.status === 'PUBLISHING')) status = 'PUBLISHING'
  else status = 'FAILED'
  const latest = rows.reduce<Date | null>(
    (max, r) => (r.publishedAt && (!max || r.publishedAt > max) ? r.publishedAt : max),
    null,
  )
  const [after] = await tx
    .update(posts)
    .set({ status, publishedAt: status === 'PUBLISHED' ? latest : before.publishedAt, updatedAt: now })
    .where(eq(posts.id, postId))
    .returning()
  return { before, after: after! }
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
  const published = await tx
    .select({ id: targets.id })
    .from(targets)
    .where(and(eq(targets.postId, postId), eq(targets.status, 'PUBLISHED')))
    .limit(1)
  return published.length > 0 ? scheduleNextOccurrence(tx, refreshed.after, now) : null
}
