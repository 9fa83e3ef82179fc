/**
 * Writes of the inbox's actions: read/unread, hidden, liked, gone, deleted, and the replies sent
 * through the service with their "call started" marker (a reply is sent at most once).
 * A comment's `state` follows its marks: hidden > replied > read > unread.
 */
import { and, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm'
import { inboxComments, inboxReplies } from '../schema'
import type { DbOrTx } from '../types'
import type { InboxCommentRow, InboxReplyRow } from './inbox-read'

export type NewInboxReplyRow = typeof inboxReplies.$inferInsert
export type NewInboxCommentRow = typeof inboxComments.$inferInsert

/** The state a row has once its marks are these (SQL expressions of the new values). */
function stateOf(marks: { hidden: SQL; replied: SQL; read: SQL }): SQL {
  return sql`case when ${marks.hidden} is not null then 'hidden' when ${marks.replied} is not null then 'replied'
    when ${marks.read} is not null then 'read' else 'unread' end`
}

const current = {
  hidden: sql`${inboxComments.hiddenAt}`,
  replied: sql`${inboxComments.repliedAt}`,
  read: sql`${inboxComments.readAt}`,
}

/** Marks the workspace's comments among `ids` read (at `now`) or unread; answers the rows changed or not. */
export function updateReadMarks(
  db: DbOrTx,
  workspaceId: string,
  input: { ids: string[]; read: boolean; now: Date },
): Promise<InboxCommentRow[]> {
  if (input.ids.length === 0) return Promise.resolve([])
  const readAt = input.read ? sql`coalesce(${inboxComments.readAt}, ${input.now.toISOString()}::timestamptz)` : sql`null`
  return db
    .update(inboxComments)
    .set({
      readAt: input.read ? sql`coalesce(${inboxComments.readAt}, ${input.now.toISOString()}::timestamptz)` : null,
      state: stateOf({ ...current, read: readAt }),
      updatedAt: input.now,
    })
    .where(and(inArray(inboxComments.id, input.ids), eq(inboxComments.workspaceId, workspaceId)))
    .returning()
}

/** Sets or clears the comment's hidden mark. */
export async function updateHiddenMark(
  db: DbOrTx,
  workspaceId: string,
  input: { id: string; hidden: boolean; now: Date },
): Promise<InboxCommentRow | null> {
  const hiddenAt = input.hidden ? sql`${input.now.toISOString()}::timestamptz` : sql`null`
  const [row] = await db
    .update(inboxComments)
    .set({ hiddenAt: input.hidden ? input.now : null, state: stateOf({ ...current, hidden: hiddenAt }), updatedAt: input.now })
    .where(and(eq(inboxComments.id, input.id), eq(inboxComments.workspaceId, workspaceId)))
    .returning()
  return row ?? null
}

/** Notes the comment liked by the account. */
export async function updateLikedMark(
  db: DbOrTx,
  workspaceId: string,
  input: { id: string; now: Date },
): Promise<InboxCommentRow | null> {
  const [row] = await db
    .update(inboxComments)
    .set({ likedAt: sql`coalesce(${inboxComments.likedAt}, ${input.now.toISOString()}::timestamptz)`, updatedAt: input.now })
    .where(and(eq(inboxComments.id, input.id), eq(inboxComments.workspaceId, workspaceId)))
    .returning()
  return row ?? null
}

/** Notes that the network no longer has the comment (or its post). */
export async function markCommentGone(db: DbOrTx, workspaceId: string, id: string, now: Date): Promise<void> {
  await db
    .update(inboxComments)
    .set({ goneAt: sql`coalesce(${inboxComments.goneAt}, ${now.toISOString()}::timestamptz)`, updatedAt: now })
    .where(and(eq(inboxComments.id, id), eq(inboxComments.workspaceId, workspaceId)))
}

/** Removes the comment and the replies under it (deleted on the network). */
export async function deleteCommentTree(db: DbOrTx, workspaceId: string, id: string): Promise<void> {
  await db.execute(sql`
    with recursive tree(id, depth) as (
      select c.id, 0 from inbox_comments c where c.id = ${id} and c.workspace_id = ${workspaceId}
      union all
      select c.id, tree.depth + 1 from inbox_comments c join tree on c.parent_id = tree.id
      where c.workspace_id = ${workspaceId} and tree.depth < 20
    )
    delete from inbox_comments where id in (select id from tree)`)
}

/** Inserts the reply unless its id exists (a retry with the same Idempotency-Key); answers the stored row. */
export async function insertReplyOnce(db: DbOrTx, row: NewInboxReplyRow): Promise<InboxReplyRow> {
  await db.insert(inboxReplies).values(row).onConflictDoNothing({ target: inboxReplies.id })
  const [stored] = await db.select().from(inboxReplies).where(eq(inboxReplies.id, row.id!))
  return stored!
}

/**
 * Marks the reply's call as started (`SENDING`, `call_started_at`), only from PENDING or FAILED
 * (nothing reached the network then); null when another request holds it or it went out already.
 */
export async function claimReplyCall(db: DbOrTx, id: string, now: Date): Promise<InboxReplyRow | null> {
  const [row] = await db
    .update(inboxReplies)
    .set({ status: 'SENDING', callStartedAt: now, error: null })
    .where(and(eq(inboxReplies.id, id), inArray(inboxReplies.status, ['PENDING', 'FAILED'])))
    .returning()
  return row ?? null
}

/** Ends the reply without a result: UNCONFIRMED (its outcome unknown), or FAILED. */
export async function settleReplyWithout(
  db: DbOrTx,
  id: string,
  input: { status: 'FAILED' | 'UNCONFIRMED'; error: { code: string; message: string } },
): Promise<InboxReplyRow | null> {
  const [row] = await db
    .update(inboxReplies)
    .set({ status: input.status, error: input.error })
    .where(and(eq(inboxReplies.id, id), inArray(inboxReplies.status, ['SENDING', 'UNCONFIRMED'])))
    .returning()
  return row ?? null
}

/** Removes a reply the network refused (nothing was sent): a retry starts again, and no trace is left. */
export async function deleteRefusedReply(db: DbOrTx, id: string): Promise<void> {
  await db.delete(inboxReplies).where(and(eq(inboxReplies.id, id), eq(inboxReplies.status, 'SENDING')))
}

/** The sent reply: SENT with its id on the network. */
export async function markReplySent(
  tx: DbOrTx,
  id: string,
  input: { externalId: string; permalink: string | null; now: Date },
): Promise<void> {
  await tx
    .update(inboxReplies)
    .set({ status: 'SENT', externalId: input.externalId, permalink: input.permalink, sentAt: input.now, error: null })
    .where(eq(inboxReplies.id, id))
}

/**
 * The reply as a comment of the thread (the sync may have stored it already: then it is linked to
 * the comment it answers), and the answered comment's replied mark; answers the reply's row.
 */
export async function insertSentReplyComment(
  tx: DbOrTx,
  row: NewInboxCommentRow & { id: string; workspaceId: string; parentId: string; updatedAt: Date },
): Promise<InboxCommentRow> {
  await tx
    .insert(inboxComments)
    .values(row)
    .onConflictDoUpdate({
      target: [inboxComments.accountId, inboxComments.kind, inboxComments.externalId],
      set: { parentId: row.parentId, fromAccount: true, updatedAt: row.updatedAt },
    })
  const [stored] = await tx
    .select()
    .from(inboxComments)
    .where(
      and(
        eq(inboxComments.accountId, row.accountId),
        eq(inboxComments.kind, row.kind),
        eq(inboxComments.externalId, row.externalId),
      ),
    )
  return stored!
}

/** The comment answered: replied at `now` (its state follows, unless it is hidden). */
export async function markCommentReplied(tx: DbOrTx, workspaceId: string, id: string, now: Date): Promise<void> {
  const repliedAt = sql`coalesce(${inboxComments.repliedAt}, ${now.toISOString()}::timestamptz)`
  await tx
    .update(inboxComments)
    .set({
      repliedAt,
      readAt: sql`coalesce(${inboxComments.readAt}, ${now.toISOString()}::timestamptz)`,
      state: stateOf({ ...current, replied: repliedAt }),
      updatedAt: now,
    })
    .where(and(eq(inboxComments.id, id), eq(inboxComments.workspaceId, workspaceId), isNull(inboxComments.goneAt)))
}

/** The reply (a list of none or one). */
export async function selectReply(db: DbOrTx, id: string): Promise<InboxReplyRow | null> {
  const [row] = await db.select().from(inboxReplies).where(eq(inboxReplies.id, id))
  return row ?? null
}

/** The sent reply as a comment of its thread (a list of none or one). */
export function selectSentReplyComment(
  db: DbOrTx,
  reply: { workspaceId: string; accountId: string; externalId: string | null },
): Promise<InboxCommentRow[]> {
  return db
    .select()
    .from(inboxComments)
    .where(
      and(
        eq(inboxComments.workspaceId, reply.workspaceId),
        eq(inboxComments.accountId, reply.accountId),
        eq(inboxComments.externalId, reply.externalId ?? ''),
        eq(inboxComments.fromAccount, true),
      ),
    )
    .limit(1)
}
