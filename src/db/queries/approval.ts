/** What approval reads and writes: who requires it, and the guarded decision on a post in review. */
import { and, eq, sql } from 'drizzle-orm'
import { posts, workspaces } from '../schema'
import { resultRows } from '../table-rows'
import type { DbOrTx, Tx } from '../types'
import type { NewPostRow } from './posts'

export interface ApprovalScope {
  /** The workspace requires approval for every post. */
  workspace: boolean
  /** The accounts in at least one group that requires approval. */
  accountIds: string[]
}

/** The workspace's setting and the accounts its approval-requiring groups hold, in one statement. */
export async function selectApprovalScope(db: DbOrTx, workspaceId: string): Promise<ApprovalScope> {
  const result = await db.execute(sql`
    select w.approval_required as "workspace",
      coalesce((select json_agg(distinct m.account_id) from account_group_members m
        join account_groups g on g.id = m.group_id
        where m.workspace_id = w.id and g.approval_required), '[]'::json) as "accountIds"
    from workspaces w where w.id = ${workspaceId}`)
  const row = resultRows(result)[0]
  if (!row) return { workspace: false, accountIds: [] }
  const ids = typeof row.accountIds === 'string' ? JSON.parse(row.accountIds) : row.accountIds
  return { workspace: row.workspace === true, accountIds: (ids as string[] | null) ?? [] }
}

/**
 * The decision on a post in review: written only if the post is still IN_REVIEW at `version` (two
 * decisions at once: one writes, the other finds nothing). True when written.
 */
export async function decideReviewedPost(
  tx: Tx,
  post: { id: string; workspaceId: string; version: number },
  values: Partial<NewPostRow>,
): Promise<boolean> {
  const written = await tx
    .update(posts)
    .set(values)
    .where(
      and(
        eq(posts.id, post.id),
        eq(posts.workspaceId, post.workspaceId),
        eq(posts.status, 'IN_REVIEW'),
        eq(posts.version, post.version),
      ),
    )
    .returning({ id: posts.id })
  return written.length === 1
}

/** The user behind an actor: the user, or the user who made the token (null for the others). */
export async function selectActorUserId(
  db: DbOrTx,
  actor: { kind: string; id: string | null },
): Promise<string | null> {
  if (!actor.id) return null
  if (actor.kind === 'user') return actor.id
  if (actor.kind !== 'token' && actor.kind !== 'agent') return null
  const result = await db.execute(sql`select user_id as "userId" from api_tokens where id = ${actor.id}`)
  return (resultRows(result)[0]?.userId as string | null | undefined) ?? null
}

/**
 * The activity entries about a post since it was at version `seen` (from the first entry that names
 * that version; without one, the latest), oldest first, at most 10.
 */
export async function selectPostActivitySince(
  db: DbOrTx,
  workspaceId: string,
  postId: string,
  seen: number,
): Promise<Array<{ at: Date; summary: string }>> {
  const result = await db.execute(sql`select at, summary from (
      select at, id, summary from activity_log
      where workspace_id = ${workspaceId} and subject_id = ${postId}
        and at >= coalesce((select min(a.at) from activity_log a where a.workspace_id = ${workspaceId}
          and a.subject_id = ${postId} and a.details->>'version' = ${String(seen)}), '-infinity'::timestamptz)
      order by at desc, id desc limit 10) recent
    order by at, id`)
  return resultRows(result).map((r) => ({ at: new Date(r.at as string | Date), summary: String(r.summary) }))
}

export interface WorkspaceSettingsRow {
  id: string
  name: string
  timezone: string
  approvalRequired: boolean
  planId: string
}

/** The workspace's own settings; null when there is no such workspace. */
export async function selectWorkspaceSettings(db: DbOrTx, workspaceId: string): Promise<WorkspaceSettingsRow | null> {
  const [row] = await db
    .select({
      id: workspaces.id,
      name: workspaces.name,
      timezone: workspaces.timezone,
      approvalRequired: workspaces.approvalRequired,
      planId: workspaces.planId,
    })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId))
  return row ?? null
}

/** Writes the settings given (the others stay). */
export async function updateWorkspaceSettingsRow(
  db: DbOrTx,
  workspaceId: string,
  values: Partial<Pick<WorkspaceSettingsRow, 'name' | 'timezone' | 'approvalRequired'>>,
): Promise<void> {
  if (Object.keys(values).length === 0) return
  await db.update(workspaces).set(values).where(eq(workspaces.id, workspaceId))
}
