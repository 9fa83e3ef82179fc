/**
 * The post rows as the publishing engine reads, locks and updates them. Lock order everywhere:
 * the post first, then its targets.
 */
import { and, eq, inArray, sql } from 'drizzle-orm'
import { posts } from '../schema'
import type { DbOrTx, Tx } from '../types'

import type { PostRow } from './posts'

export async function findPost(db: DbOrTx, postId: string): Promise<PostRow | null> {
  const [post] = await db.select().from(posts).where(eq(posts.id, postId))
  return post ?? null
}

/** The post row, locked (FOR UPDATE) for the rest of the transaction; null when it is gone. */
export async function lockPost(tx: Tx, postId: string): Promise<PostRow | null> {
  const [row] = await tx.select().from(posts).where(eq(posts.id, postId)).for('update')
  return row ?? null
}

/**
 * The post of the target, locked (FOR UPDATE), if it is still at `version` and due to publish
 * (SCHEDULED or PUBLISHING); null otherwise.
 */
export async function lockPostForDelivery(tx: Tx, targetId: string, version: number): Promise<PostRow | null> {
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
  return post ?? null
}

/** A claimed delivery moves a SCHEDULED post to PUBLISHING (nothing else changes). */
export async function markPostPublishing(tx: DbOrTx, postId: string): Promise<void> {
  await tx.update(posts).set({ status: 'PUBLISHING' }).where(eq(posts.id, postId))
}

/** "Publish now": PUBLISHING from now, out of the queue, at a new version. */
export async function startPublishingNow(
  tx: DbOrTx,
  postId: string,
  change: { version: number; now: Date },
): Promise<void> {
  await tx
    .update(posts)
    .set({
      status: 'PUBLISHING',
      scheduledAt: change.now,
      queueSlotAt: null,
      version: change.version,
      updatedAt: change.now,
    })
    .where(eq(posts.id, postId))
}

/** A retry: PUBLISHING again at a new version, keeping its scheduled time. */
export async function restartPublishing(
  tx: DbOrTx,
  postId: string,
  change: { version: number; now: Date },
): Promise<void> {
  await tx
    .update(posts)
    .set({ status: 'PUBLISHING', version: change.version, updatedAt: change.now })
    .where(eq(posts.id, postId))
}

/** Writes the status the targets add up to; the post as it is afterwards. */
export async function setPostStatus(
  tx: DbOrTx,
  postId: string,
  change: { status: PostRow['status']; publishedAt: Date | null; updatedAt: Date },
): Promise<PostRow> {
  const [after] = await tx.update(posts).set(change).where(eq(posts.id, postId)).returning()
  return after!
}

/** The id of the occurrence created after this post in its series, or null when there is none yet. */
export async function findNextOccurrenceId(tx: DbOrTx, postId: string): Promise<string | null> {
  const [existing] = await tx.select({ id: posts.id }).from(posts).where(eq(posts.recurrenceParentId, postId)).limit(1)
  return existing?.id ?? null
}
