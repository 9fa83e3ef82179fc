/**
 * Labels (a campaign, a theme) and the labels of posts. A post's labels are replaced as a whole in
 * the transaction of the post's write; a label's name is unique in its workspace in any case
 * (`(workspace_id, lower(name))`), refused without failing the transaction (`on conflict do nothing`).
 */
import { sql } from 'drizzle-orm'
import { resultRows } from '../table-rows'
import type { DbOrTx } from '../types'

export interface LabelRow {
  id: string
  name: string
  color: string
  createdAt: Date
}

/** A label as a post carries it. */
export interface PostLabelRow {
  postId: string
  id: string
  name: string
  color: string
}

const toLabelRow = (r: Record<string, unknown>): LabelRow => ({
  id: r.id as string,
  name: r.name as string,
  color: r.color as string,
  createdAt: new Date(r.created_at as string | Date),
})

export async function selectLabels(db: DbOrTx, workspaceId: string): Promise<LabelRow[]> {
  const result = await db.execute(sql`select id, name, color, created_at from labels
    where workspace_id = ${workspaceId} order by lower(name), id`)
  return resultRows(result).map(toLabelRow)
}

export async function selectLabel(db: DbOrTx, workspaceId: string, id: string): Promise<LabelRow | null> {
  const result = await db.execute(sql`select id, name, color, created_at from labels
    where workspace_id = ${workspaceId} and id = ${id}`)
  const [row] = resultRows(result)
  return row ? toLabelRow(row) : null
}

/** Those of `ids` that are labels of the workspace. */
export async function selectExistingLabelIds(db: DbOrTx, workspaceId: string, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return []
  const result = await db.execute(sql`select id from labels where workspace_id = ${workspaceId}
    and id = any(${sql.param(ids)}::text[])`)
  return resultRows(result).map((r) => r.id as string)
}

/** Inserts the label; false when the workspace has a label of that name (any case). */
export async function insertLabel(
  db: DbOrTx,
  l: { id: string; workspaceId: string; name: string; color: string; now: Date },
): Promise<boolean> {
  const result = await db.execute(sql`insert into labels (id, workspace_id, name, color, created_at)
    values (${l.id}, ${l.workspaceId}, ${l.name}, ${l.color}, ${l.now.toISOString()}::timestamptz)
    on conflict do nothing returning id`)
  return resultRows(result).length === 1
}

/** Another label (not `exceptId`) of the workspace has this name, in any case. */
export async function labelNameTaken(db: DbOrTx, workspaceId: string, name: string, exceptId: string): Promise<boolean> {
  const result = await db.execute(sql`select 1 from labels where workspace_id = ${workspaceId}
    and lower(name) = lower(${name}) and id <> ${exceptId} limit 1`)
  return resultRows(result).length > 0
}

export async function updateLabelRow(
  db: DbOrTx,
  workspaceId: string,
  id: string,
  set: { name?: string | undefined; color?: string | undefined },
): Promise<void> {
  const parts = [
    set.name !== undefined ? sql`name = ${set.name}` : null,
    set.color !== undefined ? sql`color = ${set.color}` : null,
  ].filter((p) => p !== null)
  if (parts.length === 0) return
  await db.execute(sql`update labels set ${sql.join(parts, sql`, `)} where workspace_id = ${workspaceId} and id = ${id}`)
}

/** Deletes the label (it leaves its posts by cascade); false when there is none. */
export async function deleteLabelRow(db: DbOrTx, workspaceId: string, id: string): Promise<boolean> {
  const result = await db.execute(sql`delete from labels where workspace_id = ${workspaceId} and id = ${id} returning id`)
  return resultRows(result).length === 1
}

/** The post's labels become exactly `labelIds` (already checked to be the workspace's). */
export async function replacePostLabels(
  db: DbOrTx,
  workspaceId: string,
  postId: string,
  labelIds: string[],
): Promise<void> {
  await db.execute(sql`delete from post_labels where post_id = ${postId}
    and not (label_id = any(${sql.param(labelIds)}::text[]))`)
  if (labelIds.length === 0) return
  await db.execute(sql`insert into post_labels (post_id, label_id, workspace_id)
    select ${postId}, l.id, l.workspace_id from labels l
    where l.workspace_id = ${workspaceId} and l.id = any(${sql.param(labelIds)}::text[])
    on conflict do nothing`)
}

/** The labels of these posts, each post's by name. */
export async function selectLabelsOfPosts(db: DbOrTx, postIds: string[]): Promise<PostLabelRow[]> {
  if (postIds.length === 0) return []
  const result = await db.execute(sql`select pl.post_id, l.id, l.name, l.color from post_labels pl
    join labels l on l.id = pl.label_id where pl.post_id = any(${sql.param(postIds)}::text[])
    order by pl.post_id, lower(l.name), l.id`)
  return resultRows(result).map((r) => ({
    postId: r.post_id as string,
    id: r.id as string,
    name: r.name as string,
    color: r.color as string,
  }))
}
