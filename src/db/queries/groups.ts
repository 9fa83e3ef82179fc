/**
 * Account groups (a client, a brand) and their accounts. Written as SQL text: a group's accounts
 * come back as one ordered array, and a duplicate name is refused by the unique index
 * `(workspace_id, lower(name))` without failing the transaction (`on conflict do nothing`).
 */
import { sql } from 'drizzle-orm'
import { resultRows } from '../table-rows'
import type { DbOrTx } from '../types'

export interface GroupRow {
  id: string
  name: string
  color: string | null
  approvalRequired: boolean
  accountIds: string[]
  createdAt: Date
}

const textArray = (v: unknown): string[] => {
  if (Array.isArray(v)) return v as string[]
  if (typeof v === 'string' && v.startsWith('{')) return v.slice(1, -1).split(',').filter(Boolean)
  return []
}

const toGroupRow = (r: Record<string, unknown>): GroupRow => ({
  id: r.id as string,
  name: r.name as string,
  color: (r.color as string | null) ?? null,
  approvalRequired: Boolean(r.approval_required),
  accountIds: textArray(r.account_ids),
  createdAt: new Date(r.created_at as string | Date),
})

const GROUP_COLUMNS = sql`g.id, g.name, g.color, g.approval_required, g.created_at,
  coalesce((select array_agg(m.account_id order by m.account_id) from account_group_members m where m.group_id = g.id), '{}') as account_ids`

/** The workspace's groups by name (only `onlyIds` when given: a limited caller's). */
export async function selectGroups(
  db: DbOrTx,
  workspaceId: string,
  onlyIds: readonly string[] | null = null,
): Promise<GroupRow[]> {
  const only = onlyIds ? sql` and g.id = any(${sql.param([...onlyIds])}::text[])` : sql``
  const result = await db.execute(
    sql`select ${GROUP_COLUMNS} from account_groups g where g.workspace_id = ${workspaceId}${only} order by lower(g.name), g.id`,
  )
  return resultRows(result).map(toGroupRow)
}

export async function selectGroup(db: DbOrTx, workspaceId: string, id: string): Promise<GroupRow | null> {
  const result = await db.execute(
    sql`select ${GROUP_COLUMNS} from account_groups g where g.workspace_id = ${workspaceId} and g.id = ${id}`,
  )
  const [row] = resultRows(result)
  return row ? toGroupRow(row) : null
}

/** Inserts the group; false when the workspace has a group of that name (any case). */
export async function insertGroup(
  db: DbOrTx,
  g: { id: string; workspaceId: string; name: string; color: string | null; approvalRequired: boolean; now: Date },
): Promise<boolean> {
  const result =
    await db.execute(sql`insert into account_groups (id, workspace_id, name, color, approval_required, created_at)
    values (${g.id}, ${g.workspaceId}, ${g.name}, ${g.color}, ${g.approvalRequired}, ${g.now.toISOString()}::timestamptz)
    on conflict do nothing returning id`)
  return resultRows(result).length === 1
}

/** Another group (not `exceptId`) of the workspace has this name, in any case. */
export async function groupNameTaken(
  db: DbOrTx,
  workspaceId: string,
  name: string,
  exceptId: string,
): Promise<boolean> {
  const result = await db.execute(sql`select 1 from account_groups where workspace_id = ${workspaceId}
    and lower(name) = lower(${name}) and id <> ${exceptId} limit 1`)
  return resultRows(result).length > 0
}

export async function updateGroupRow(
  db: DbOrTx,
  workspaceId: string,
  id: string,
  set: { name?: string | undefined; color?: string | null | undefined; approvalRequired?: boolean | undefined },
): Promise<void> {
  const parts = [
    set.name !== undefined ? sql`name = ${set.name}` : null,
    set.color !== undefined ? sql`color = ${set.color}` : null,
    set.approvalRequired !== undefined ? sql`approval_required = ${set.approvalRequired}` : null,
  ].filter((p) => p !== null)
  if (parts.length === 0) return
  await db.execute(
    sql`update account_groups set ${sql.join(parts, sql`, `)} where workspace_id = ${workspaceId} and id = ${id}`,
  )
}

/** Deletes the group (its memberships and links go by cascade; the accounts stay); false when there is none. */
export async function deleteGroupRow(db: DbOrTx, workspaceId: string, id: string): Promise<boolean> {
  const result = await db.execute(
    sql`delete from account_groups where workspace_id = ${workspaceId} and id = ${id} returning id`,
  )
  return resultRows(result).length === 1
}

/** The group's accounts become exactly `accountIds` (already checked to be the workspace's). */
export async function replaceGroupAccounts(
  db: DbOrTx,
  workspaceId: string,
  groupId: string,
  accountIds: string[],
): Promise<void> {
  await db.execute(sql`delete from account_group_members where group_id = ${groupId}
    and not (account_id = any(${sql.param(accountIds)}::text[]))`)
  if (accountIds.length === 0) return
  await db.execute(sql`insert into account_group_members (group_id, account_id, workspace_id)
    select ${groupId}, a.id, a.workspace_id from accounts a
    where a.workspace_id = ${workspaceId} and a.id = any(${sql.param(accountIds)}::text[])
    on conflict do nothing`)
}

/**
 * Puts the workspace's account into the workspace's group; the group ids it joined (none when the
 * group is gone).
 */
export async function addAccountToGroup(
  db: DbOrTx,
  workspaceId: string,
  groupId: string,
  accountId: string,
): Promise<string[]> {
  const result = await db.execute(sql`insert into account_group_members (group_id, account_id, workspace_id)
    select g.id, a.id, a.workspace_id from account_groups g join accounts a on a.workspace_id = g.workspace_id
    where g.workspace_id = ${workspaceId} and g.id = ${groupId} and a.id = ${accountId}
    on conflict do nothing returning group_id`)
  return resultRows(result).map((r) => r.group_id as string)
}

/** Each account's groups (ids, sorted), for the accounts given; an account in none is absent. */
export async function selectGroupIdsOfAccounts(db: DbOrTx, accountIds: string[]): Promise<Map<string, string[]>> {
  if (accountIds.length === 0) return new Map()
  const result = await db.execute(sql`select account_id, array_agg(group_id order by group_id) as group_ids
    from account_group_members where account_id = any(${sql.param(accountIds)}::text[]) group by account_id`)
  return new Map(resultRows(result).map((r) => [r.account_id as string, textArray(r.group_ids)]))
}

/** Those of `groupIds` that are groups of the workspace. */
export async function selectExistingGroupIds(db: DbOrTx, workspaceId: string, groupIds: string[]): Promise<string[]> {
  if (groupIds.length === 0) return []
  const result = await db.execute(sql`select id from account_groups where workspace_id = ${workspaceId}
    and id = any(${sql.param(groupIds)}::text[])`)
  return resultRows(result).map((r) => r.id as string)
}
