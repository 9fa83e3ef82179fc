/**
 * Imported posts (services/inbox/sync-posts.ts): a post the account published on the network some
 * other way, kept as a read-only post with `source` 'external' and one PUBLISHED target.
 */
import { and, eq, inArray } from 'drizzle-orm'
import { posts, targetMetricSnapshots, targets } from '../schema'
import type { DbOrTx } from '../types'

export interface KnownNetworkPost {
  targetId: string
  platformPostId: string
  source: 'service' | 'external'
}

/** The account's targets that already carry one of these network ids. */
export async function selectKnownNetworkPosts(
  db: DbOrTx,
  accountId: string,
  platformPostIds: string[],
): Promise<KnownNetworkPost[]> {
  if (platformPostIds.length === 0) return []
  const rows = await db
    .select({ targetId: targets.id, platformPostId: targets.platformPostId, source: posts.source })
    .from(targets)
    .innerJoin(posts, eq(posts.id, targets.postId))
    .where(and(eq(targets.accountId, accountId), inArray(targets.platformPostId, platformPostIds)))
  return rows.map((r) => ({ targetId: r.targetId, platformPostId: r.platformPostId!, source: r.source }))
}

export type NewExternalPost = {
  post: typeof posts.$inferInsert
  target: typeof targets.$inferInsert
}

export async function insertExternalPosts(db: DbOrTx, rows: NewExternalPost[]): Promise<void> {
  if (rows.length === 0) return
  await db.insert(posts).values(rows.map((r) => r.post))
  await db.insert(targets).values(rows.map((r) => r.target))
}

export async function insertSnapshots(db: DbOrTx, rows: Array<typeof targetMetricSnapshots.$inferInsert>) {
  if (rows.length === 0) return
  await db.insert(targetMetricSnapshots).values(rows)
}
