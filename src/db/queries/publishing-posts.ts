/**
 * The post rows as the publishing engine reads, locks and updates them. Lock order everywhere:
 * the post first, then its targets.
 */
import { eq, sql } from 'drizzle-orm'
import { posts } from '../schema'
import { resultRows, selectTableRows, tableRows } from '../table-rows'
import type { DbOrTx, Tx } from '../types'

import type { PostRow } from './posts'
import type { EnabledEndpoint } from './webhook-endpoints'

export async function findPost(db: DbOrTx, postId: string): Promise<PostRow | null> {
  const [post] = await db.select().from(posts).where(eq(posts.id, postId))
  return post ?? null
}

/** The post row, locked (FOR UPDATE) for the rest of the transaction; null when it is gone. */
export async function lockPost(tx: Tx, postId: string): Promise<PostRow | null> {
  const [row] = await selectTableRows(tx, posts, sql`select * from posts where id = ${postId} for update`)
  return row ?? null
}

/**
 * `lockPost`, with the enabled webhook endpoints of the post's workspace and the event types each
 * takes, read in the same statement (for the events of a result, recorded later in the transaction).
 */
export async function lockPostWithEndpoints(
  tx: Tx,
  postId: string,
): Promise<{ post: PostRow; endpoints: EnabledEndpoint[] } | null> {
  const result = await tx.execute(
    sql`select p.*, (select coalesce(json_agg(json_build_object('id', e.id, 'events', e.events) order by e.id), '[]')
        from webhook_endpoints e where e.workspace_id = p.workspace_id and e.enabled) as "enabledEndpoints"
      from posts p where p.id = ${postId} for update of p`,
  )
  const [post] = tableRows(posts, result)
  if (!post) return null
  const endpoints = resultRows(result)[0]!.enabledEndpoints
  const parsed = typeof endpoints === 'string' ? JSON.parse(endpoints) : endpoints
  return { post, endpoints: parsed as EnabledEndpoint[] }
}

/**
 * The post of the target, locked (FOR UPDATE), if it is still at `version` and due to publish
 * (SCHEDULED or PUBLISHING); null otherwise.
 */
export async function lockPostForDelivery(tx: Tx, targetId: string, version: number): Promise<PostRow | null> {
  const [post] = await selectTableRows(
    tx,
    posts,
    sql`select * from posts where id = (select t.post_id from targets t where t.id = ${targetId})
      and version = ${version} and status in ('SCHEDULED', 'PUBLISHING') for update`,
  )
  return post ?? null
}

/** A claimed delivery moves a SCHEDULED post to PUBLISHING (nothing else changes). */
export async function markPostPublishing(tx: DbOrTx, postId: string): Promise<void> {
  await tx.execute(sql`update posts set status = 'PUBLISHING' where id = ${postId}`)
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
  const [after] = await selectTableRows(
    tx,
    posts,
    sql`with outcome as (select case
          when count(*) > 0 and bool_and(t.status = 'PUBLISHED') then 'PUBLISHED'
          when bool_or(t.status in ('PENDING', 'PUBLISHING')) then 'PUBLISHING'
          else 'FAILED' end as status,
        max(t.published_at) as last_published_at
        from targets t where t.post_id = ${postId})
      update posts set status = outcome.status,
        published_at = case when outcome.status = 'PUBLISHED'
          then outcome.last_published_at else posts.published_at end,
        updated_at = ${now.toISOString()}::timestamptz
      from outcome where posts.id = ${postId}
      returning posts.*`,
  )
  return after ?? null
}

/** The id of the occurrence created after this post in its series, or null when there is none yet. */
export async function findNextOccurrenceId(tx: DbOrTx, postId: string): Promise<string | null> {
  const [existing] = await tx.select({ id: posts.id }).from(posts).where(eq(posts.recurrenceParentId, postId)).limit(1)
  return existing?.id ?? null
}
