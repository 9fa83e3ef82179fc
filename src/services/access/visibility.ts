/**
 * What a caller limited to some account groups (`Access.groupIds` not null) may see and change
 * (docs/decisions.md, "Account groups, labels and visibility"): an account in one of their groups;
 * a post with at least one such account (to read), or only such accounts (to write). What they
 * cannot see is 404, as if it did not exist; a post they see but also goes elsewhere is 403 to
 * write. A caller with `groupIds` null (owners, admins, unlimited members) sees the whole workspace.
 */
import { selectExistingGroupIds } from '../../db/queries/groups'
import { selectExistingLabelIds } from '../../db/queries/labels'
import {
  type ScopeFilter,
  selectAccountsInGroups,
  selectPostReach,
  selectVisibleCommentIds,
} from '../../db/queries/scope'
import type { DbOrTx } from '../../db/types'
import type { Access } from '../../domain/access'
import { AppError, type ErrorDetail, notFound } from '../../domain/errors'

export type { ScopeFilter }

/** Who asks, as far as visibility goes: a workspace and an access (a `Caller` is one). */
export interface Viewer {
  workspaceId: string
  access: Access
}

export const OUTSIDE_GROUPS_MESSAGE = 'This post also goes to accounts outside your groups.'

/** The account is the workspace's and the viewer sees it; else 404 `Account not found.`. */
export async function assertAccountVisible(db: DbOrTx, viewer: Viewer, accountId: string): Promise<void> {
  const groups = viewer.access.groupIds
  if (groups === null) return
  const seen = await selectAccountsInGroups(db, viewer.workspaceId, [accountId], groups)
  if (seen.length === 0) throw notFound('Account')
}

/** The post is the workspace's and one of its accounts is visible; else 404 `Post not found.`. */
export async function assertPostVisible(db: DbOrTx, viewer: Viewer, postId: string): Promise<void> {
  const groups = viewer.access.groupIds
  if (groups === null) return
  const reach = await selectPostReach(db, viewer.workspaceId, postId, groups)
  if (!reach || reach.visible === 0) throw notFound('Post')
}

/** As `assertPostVisible`, and every account of the post is visible: else 403 `forbidden`. */
export async function assertPostWritable(db: DbOrTx, viewer: Viewer, postId: string): Promise<void> {
  const groups = viewer.access.groupIds
  if (groups === null) return
  const reach = await selectPostReach(db, viewer.workspaceId, postId, groups)
  if (!reach || reach.visible === 0) throw notFound('Post')
  if (reach.visible < reach.targets) throw new AppError('forbidden', OUTSIDE_GROUPS_MESSAGE)
}

/** The inbox comment is the workspace's, on a visible account; else 404 `Comment not found.`. */
export async function assertCommentVisible(db: DbOrTx, viewer: Viewer, commentId: string): Promise<void> {
  const groups = viewer.access.groupIds
  if (groups === null) return
  const seen = await selectVisibleCommentIds(db, viewer.workspaceId, [commentId], groups)
  if (seen.length === 0) throw notFound('Comment')
}

/** Those of `commentIds` the viewer sees (all of them for an unlimited viewer). */
export async function visibleCommentIds(db: DbOrTx, viewer: Viewer, commentIds: string[]): Promise<string[]> {
  const groups = viewer.access.groupIds
  if (groups === null) return commentIds
  return selectVisibleCommentIds(db, viewer.workspaceId, commentIds, groups)
}

/**
 * A post's new accounts: each one the viewer cannot see is refused as an unknown one would be,
 * 422 `account_not_found` (an account outside their groups does not exist for them).
 */
export async function assertAccountsVisible(db: DbOrTx, viewer: Viewer, accountIds: string[]): Promise<void> {
  const groups = viewer.access.groupIds
  if (groups === null || accountIds.length === 0) return
  const seen = new Set(await selectAccountsInGroups(db, viewer.workspaceId, [...new Set(accountIds)], groups))
  const missing: ErrorDetail[] = []
  accountIds.forEach((id, i) => {
    if (!seen.has(id)) missing.push({ path: `accountIds.${i}`, message: `no account ${id} in this workspace` })
  })
  if (missing.length === 0) return
  const first = accountIds[Number(missing[0]!.path.split('.')[1])]
  throw new AppError(
    'account_not_found',
    missing.length === 1
      ? `Account ${first} is not in this workspace.`
      : `${missing.length} accounts are not in this workspace; see details.`,
    { details: missing },
  )
}

/**
 * The filters of a list (`groupId`, `labelId`) with the viewer's groups added. An unknown group or
 * label, or a group outside a limited viewer's, is 404 (as an unknown `accountId` filter is).
 */
export async function scopeOf(
  db: DbOrTx,
  viewer: Viewer,
  filter: { groupId?: string | undefined; labelId?: string | undefined },
): Promise<ScopeFilter> {
  const groups = viewer.access.groupIds
  if (filter.groupId) {
    const known = await selectExistingGroupIds(db, viewer.workspaceId, [filter.groupId])
    if (known.length === 0 || (groups !== null && !groups.includes(filter.groupId))) throw notFound('Group')
  }
  if (filter.labelId) {
    const known = await selectExistingLabelIds(db, viewer.workspaceId, [filter.labelId])
    if (known.length === 0) throw notFound('Label')
  }
  return { groupId: filter.groupId, labelId: filter.labelId, visibleGroupIds: groups }
}
