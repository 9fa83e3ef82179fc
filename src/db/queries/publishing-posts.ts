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

/**
 * Writes the status the post's targets add up to, in one statement (docs/decisions.md, "Statuses"):
 * all PUBLISHED -> PUBLISHED (published at the latest target's time); any still PENDING or
 * PUBLISHING -> PUBLISHING; all settled with a FAILED one (or none at all) -> FAILED. The post as it
 * is afterwards, or null when it is gone. The caller holds the post's lock.
 */
export async function writeStatusFromTargets(tx: DbOrTx, postId: string, now: Date): Promise<PostRow | null> {
  const status = sql<PostRow['status']>`(select case
      when count(*) > 0 and bool_and(t.status = 'PUBLISHED') then 'PUBLISHED'
      when bool_or(t.status in ('PENDING', 'PUBLISHING')) then 'PUBLISHING'
      else 'FAILED' end
    from targets t where t.post_id = ${posts.id})`
  const [after] = await tx
    .update(posts)
    .set({
      status,
      publishedAt: sql`case when ${status} = 'PUBLISHED'
        then (select max(t.published_at) from targets t where t.post_id = ${posts.id}) else ${posts.publishedAt} end`,
      updatedAt: now,
    })
    .where(eq(posts.id, postId))
    .returning()
  return after ?? null
}

/** The id of the occurrence created after this post in its series, or null when there is none yet. */
export async function findNextOccurrenceId(tx: DbOrTx, postId: string): Promise<string | null> {
  const [existing] = await tx.select({ id: posts.id }).from(posts).where(eq(posts.recurrenceParentId, postId)).limit(1)
  return existing?.id ?? null
}
