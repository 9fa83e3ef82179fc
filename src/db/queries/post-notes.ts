/** Queries of notes on posts (the team's internal discussion, never published). */
import { and, asc, eq, isNull, sql } from 'drizzle-orm'
import { memberships, postNotes, posts, users } from '../schema'
import type { DbOrTx } from '../types'

export type PostNoteRow = typeof postNotes.$inferSelect

/**
 * Whether the post is in the workspace and visible to an access limited to `groupIds` (null: the whole
 * workspace): one of its accounts in one of those groups.
 */
export async function postVisibleTo(
  db: DbOrTx,
  q: { workspaceId: string; postId: string; groupIds: readonly string[] | null },
): Promise<boolean> {
  const inGroups =
    q.groupIds === null
      ? undefined
      : q.groupIds.length === 0
        ? sql`false`
        : sql`exists (select 1 from targets t join account_group_members agm on agm.account_id = t.account_id
            where t.post_id = ${posts.id} and agm.group_id = any(${sql.param([...q.groupIds])}::text[]))`
  const [row] = await db
    .select({ id: posts.id })
    .from(posts)
    .where(and(eq(posts.id, q.postId), eq(posts.workspaceId, q.workspaceId), inGroups))
    .limit(1)
  return row !== undefined
}

/** The post's notes not deleted, oldest first. */
export function selectPostNotes(db: DbOrTx, workspaceId: string, postId: string) {
  return db
    .select()
    .from(postNotes)
    .where(and(eq(postNotes.workspaceId, workspaceId), eq(postNotes.postId, postId), isNull(postNotes.deletedAt)))
    .orderBy(asc(postNotes.createdAt), asc(postNotes.id))
}

export async function insertPostNote(db: DbOrTx, values: typeof postNotes.$inferInsert): Promise<PostNoteRow> {
  const [row] = await db.insert(postNotes).values(values).returning()
  return row!
}

export async function findPostNote(db: DbOrTx, q: { workspaceId: string; postId: string; noteId: string }) {
  const [row] = await db
    .select()
    .from(postNotes)
    .where(
      and(
        eq(postNotes.id, q.noteId),
        eq(postNotes.postId, q.postId),
        eq(postNotes.workspaceId, q.workspaceId),
        isNull(postNotes.deletedAt),
      ),
    )
  return row ?? null
}

export async function markPostNoteDeleted(db: DbOrTx, id: string, now: Date): Promise<void> {
  await db.update(postNotes).set({ deletedAt: now }).where(eq(postNotes.id, id))
}

/** Which of these user ids are members of the workspace, with their names. */
export function selectMembersByIds(db: DbOrTx, workspaceId: string, userIds: string[]) {
  return db
    .select({ userId: users.id, name: users.name })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(
      and(eq(memberships.workspaceId, workspaceId), sql`${memberships.userId} = any(${sql.param(userIds)}::text[])`),
    )
}

/** The workspace's members with their group limits (null: the whole workspace). */
export async function selectMembersWithGroups(db: DbOrTx, workspaceId: string) {
  const rows = await db
    .select({
      userId: users.id,
      name: users.name,
      email: users.email,
      role: memberships.role,
      groupIds: sql<string[] | null>`(select array_agg(mg.group_id order by mg.group_id) from membership_groups mg
        where mg.workspace_id = ${memberships.workspaceId} and mg.user_id = ${memberships.userId})`,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.workspaceId, workspaceId))
    .orderBy(asc(users.name), asc(users.id))
  return rows.map((r) => ({ ...r, groupIds: r.groupIds && r.groupIds.length > 0 ? r.groupIds : null }))
}
