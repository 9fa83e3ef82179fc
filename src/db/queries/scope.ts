/**
 * SQL conditions of account groups and labels, shared by every list that narrows by them: an
 * account in some groups, a post with an account in some groups (or with all of its accounts
 * there), a post with a label. Each is an `exists` over `account_group_members` or `post_labels`
 * (both indexed by workspace and account or label), so a list never loads the memberships.
 */
import { type SQL, sql } from 'drizzle-orm'
import { resultRows } from '../table-rows'
import type { DbOrTx } from '../types'

const idList = (ids: readonly string[]) => sql`${sql.param([...ids])}::text[]`

/** The account (`accountId`, a column or expression) is in one of `groupIds`. */
export function accountInGroups(accountId: SQL, groupIds: readonly string[]): SQL {
  return sql`exists (select 1 from account_group_members agm
    where agm.account_id = ${accountId} and agm.group_id = any(${idList(groupIds)}))`
}

/** The post (`postId`) has a target on an account in one of `groupIds`. */
export function postInGroups(postId: SQL, groupIds: readonly string[]): SQL {
  return sql`exists (select 1 from targets vt join account_group_members agm on agm.account_id = vt.account_id
    where vt.post_id = ${postId} and agm.group_id = any(${idList(groupIds)}))`
}

/** The post (`postId`) has the label. */
export function postHasLabel(postId: SQL, labelId: string): SQL {
  return sql`exists (select 1 from post_labels pl where pl.post_id = ${postId} and pl.label_id = ${labelId})`
}

/** What a list narrows by: a group, a label, and the groups a limited caller sees (null: all). */
export interface ScopeFilter {
  groupId?: string | undefined
  labelId?: string | undefined
  /** The caller's groups (`Access.groupIds`): null or absent for the whole workspace. */
  visibleGroupIds?: readonly string[] | null | undefined
}

/** The conditions of `f` on a post list (`postId`: the post's id column). */
export function postScopeConditions(postId: SQL, f: ScopeFilter): SQL[] {
  const out: SQL[] = []
  if (f.visibleGroupIds) out.push(postInGroups(postId, f.visibleGroupIds))
  if (f.groupId) out.push(postInGroups(postId, [f.groupId]))
  if (f.labelId) out.push(postHasLabel(postId, f.labelId))
  return out
}

/** The conditions of `f` on a list of accounts' things (`accountId`: the account column); labels do not apply. */
export function accountScopeConditions(accountId: SQL, f: ScopeFilter): SQL[] {
  const out: SQL[] = []
  if (f.visibleGroupIds) out.push(accountInGroups(accountId, f.visibleGroupIds))
  if (f.groupId) out.push(accountInGroups(accountId, [f.groupId]))
  return out
}

/**
 * A post of the workspace as a limited caller sees it: whether it exists, and how many of its
 * targets are on accounts in `groupIds` (of how many). One statement.
 */
export async function selectPostReach(
  db: DbOrTx,
  workspaceId: string,
  postId: string,
  groupIds: readonly string[],
): Promise<{ targets: number; visible: number } | null> {
  const result = await db.execute(sql`select count(t.id)::int as targets,
      count(t.id) filter (where ${accountInGroups(sql`t.account_id`, groupIds)})::int as visible
    from posts p left join targets t on t.post_id = p.id
    where p.id = ${postId} and p.workspace_id = ${workspaceId} group by p.id`)
  const [row] = resultRows(result)
  return row ? { targets: Number(row.targets), visible: Number(row.visible) } : null
}

/** Those of `accountIds` that are the workspace's and in one of `groupIds`. */
export async function selectAccountsInGroups(
  db: DbOrTx,
  workspaceId: string,
  accountIds: string[],
  groupIds: readonly string[],
): Promise<string[]> {
  if (accountIds.length === 0) return []
  const result = await db.execute(sql`select a.id from accounts a where a.workspace_id = ${workspaceId}
    and a.id = any(${sql.param(accountIds)}::text[]) and ${accountInGroups(sql`a.id`, groupIds)}`)
  return resultRows(result).map((r) => r.id as string)
}

/** Those of `commentIds` that are the workspace's inbox comments on accounts in one of `groupIds`. */
export async function selectVisibleCommentIds(
  db: DbOrTx,
  workspaceId: string,
  commentIds: string[],
  groupIds: readonly string[],
): Promise<string[]> {
  if (commentIds.length === 0) return []
  const result = await db.execute(sql`select c.id from inbox_comments c where c.workspace_id = ${workspaceId}
    and c.id = any(${sql.param(commentIds)}::text[]) and ${accountInGroups(sql`c.account_id`, groupIds)}`)
  return resultRows(result).map((r) => r.id as string)
}
