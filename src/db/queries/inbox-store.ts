/**
 * What the sync writes into the inbox (services/inbox/sync-comments.ts): new comments and mentions
 * (a row per account, kind and network id: a second read of the same comment changes nothing), the
 * link of a reply to its parent once both are known, and the targets whose comments are read.
 */
import { and, asc, desc, eq, gte, isNotNull, isNull, lte, max, or, sql } from 'drizzle-orm'
import type { InboxKind } from '../../domain/vocabulary'
import { inboxComments, targetCommentSync, targets } from '../schema'
import { resultRows } from '../table-rows'
import type { DbOrTx } from '../types'

export type InboxCommentRow = typeof inboxComments.$inferSelect
export type NewInboxCommentRow = typeof inboxComments.$inferInsert

/** Inserts the rows not stored yet; answers those inserted (the new ones). */
export async function insertNewComments(db: DbOrTx, rows: NewInboxCommentRow[]): Promise<InboxCommentRow[]> {
  if (rows.length === 0) return []
  return db.insert(inboxComments).values(rows).onConflictDoNothing().returning()
}

/**
 * Links the account's replies whose parent is now known to it (either may arrive first); answers
 * the rows linked, with their parent's id.
 */
export async function linkParents(
  db: DbOrTx,
  accountId: string,
  kind: InboxKind,
): Promise<Array<{ id: string; parentId: string }>> {
  const result = await db.execute(sql`
    update inbox_comments c set parent_id = p.id
    from inbox_comments p
    where c.account_id = ${accountId} and c.kind = ${kind}
      and c.parent_id is null and c.parent_external_id is not null
      and p.account_id = c.account_id and p.kind = c.kind and p.external_id = c.parent_external_id
    returning c.id, c.parent_id`)
  return resultRows(result).map((r) => ({ id: String(r.id), parentId: String(r.parent_id) }))
}

/** The newest mention already stored for the account (the network's `since`). */
export async function newestMentionAt(db: DbOrTx, accountId: string): Promise<Date | null> {
  const [row] = await db
    .select({ at: max(inboxComments.createdAt) })
    .from(inboxComments)
    .where(and(eq(inboxComments.accountId, accountId), eq(inboxComments.kind, 'mention')))
  return row?.at ? new Date(row.at) : null
}

export interface CommentTarget {
  targetId: string
  postId: string
  platformPostId: string
  publishedAt: Date
  permalink: string | null
  cursor: string | null
  lastCommentAt: Date | null
}

/** The account's published targets (service and imported) since `since` whose comments are due, stalest first. */
export async function selectCommentTargets(
  db: DbOrTx,
  input: { accountId: string; since: Date; now: Date; limit: number },
): Promise<CommentTarget[]> {
  const rows = await db
    .select({
      targetId: targets.id,
      postId: targets.postId,
      platformPostId: targets.platformPostId,
      publishedAt: targets.publishedAt,
      permalink: targets.permalink,
      cursor: targetCommentSync.cursor,
      lastCommentAt: targetCommentSync.lastCommentAt,
    })
    .from(targets)
    .leftJoin(targetCommentSync, eq(targetCommentSync.targetId, targets.id))
    .where(
      and(
        eq(targets.accountId, input.accountId),
        eq(targets.status, 'PUBLISHED'),
        isNotNull(targets.platformPostId),
        gte(targets.publishedAt, input.since),
        or(isNull(targetCommentSync.nextRunAt), lte(targetCommentSync.nextRunAt, input.now)),
      ),
    )
    .orderBy(sql`${targetCommentSync.syncedAt} asc nulls first`, desc(targets.publishedAt), asc(targets.id))
    .limit(input.limit)
  return rows.map((r) => ({ ...r, platformPostId: r.platformPostId!, publishedAt: r.publishedAt! }))
}
