/**
 * Account groups (a client, a brand): their CRUD and their accounts. A group's `accountIds` are
 * replaced as a whole, in the transaction of the change; an account of another workspace (or
 * none) is 422 `account_not_found`. Deleting a group takes its memberships, member limits and
 * review links with it (foreign keys), never its accounts. Each change is in the activity log
 * (`group.created`, `group.updated`, `group.deleted`, with the accounts added and removed).
 */
import { selectWorkspaceAccountsByIds } from '../../db/queries/posts'
import {
  deleteGroupRow,
  groupNameTaken,
  type GroupRow,
  insertGroup,
  replaceGroupAccounts,
  selectGroup,
  selectGroups,
  updateGroupRow,
} from '../../db/queries/groups'
import type { DbOrTx } from '../../db/types'
import type { Deps } from '../../deps'
import { AppError, type ErrorDetail, notFound } from '../../domain/errors'
import { newId } from '../../lib/ids'
import type { Viewer } from '../access/visibility'
import { accountMoves, recordGroupActivity } from '../activity/catalog'
import type { Caller } from '../caller'

type GroupDeps = Pick<Deps, 'db' | 'clock'>

export interface GroupRecord {
  id: string
  name: string
  color: string | null
  approvalRequired: boolean
  accountIds: string[]
  createdAt: string
}

export interface GroupInput {
  name: string
  color?: string | null | undefined
  approvalRequired?: boolean | undefined
  accountIds?: string[] | undefined
}

export type GroupPatch = Partial<GroupInput>

const toGroupRecord = (g: GroupRow): GroupRecord => ({ ...g, createdAt: g.createdAt.toISOString() })

const nameTaken = (name: string) =>
  new AppError('name_taken', `A group named "${name}" already exists in this workspace; choose another name.`, {
    details: [{ path: 'name', message: 'already used by another group' }],
  })

/** The workspace's groups by name; a caller limited to some groups sees those only. */
export async function listGroups(db: DbOrTx, viewer: Viewer): Promise<GroupRecord[]> {
  return (await selectGroups(db, viewer.workspaceId, viewer.access.groupIds)).map(toGroupRecord)
}

/** One group, or 404 (another workspace's, or outside a limited caller's groups). */
export async function getGroup(db: DbOrTx, viewer: Viewer, groupId: string): Promise<GroupRecord> {
  const groups = viewer.access.groupIds
  const row = groups === null || groups.includes(groupId) ? await selectGroup(db, viewer.workspaceId, groupId) : null
  if (!row) throw notFound('Group')
  return toGroupRecord(row)
}

/** Every id is an account of the workspace; else 422 `account_not_found` naming each. */
async function assertWorkspaceAccounts(db: DbOrTx, workspaceId: string, accountIds: string[]): Promise<void> {
  const found = new Set(
    (await selectWorkspaceAccountsByIds(db, workspaceId, [...new Set(accountIds)])).map((a) => a.id),
  )
  const missing: ErrorDetail[] = []
  accountIds.forEach((id, i) => {
    if (!found.has(id)) missing.push({ path: `accountIds.${i}`, message: `no account ${id} in this workspace` })
  })
  if (missing.length === 0) return
  throw new AppError(
    'account_not_found',
    missing.length === 1
      ? `Account ${accountIds[Number(missing[0]!.path.split('.')[1])]} is not in this workspace.`
      : `${missing.length} accounts are not in this workspace; see details.`,
    { details: missing },
  )
}

export async function createGroup(deps: GroupDeps, caller: Caller, input: GroupInput): Promise<GroupRecord> {
  const { workspaceId } = caller
  const id = newId('group')
  const now = deps.clock.now()
  await deps.db.transaction(async (tx) => {
    if (input.accountIds) await assertWorkspaceAccounts(tx, workspaceId, input.accountIds)
    const inserted = await insertGroup(tx, {
      id,
      workspaceId,
      name: input.name,
      color: input.color ?? null,
      approvalRequired: input.approvalRequired ?? false,
      now,
    })
    if (!inserted) throw nameTaken(input.name)
    const accountIds = [...new Set(input.accountIds ?? [])]
    if (input.accountIds) await replaceGroupAccounts(tx, workspaceId, id, accountIds)
    await recordGroupActivity(tx, caller, { verb: 'created', group: { id, name: input.name }, added: accountIds, now })
  })
  return getGroup(deps.db, caller, id)
}

export async function updateGroup(
  deps: GroupDeps,
  caller: Caller,
  groupId: string,
  patch: GroupPatch,
): Promise<GroupRecord> {
  const { workspaceId } = caller
  await deps.db.transaction(async (tx) => {
    const before = await selectGroup(tx, workspaceId, groupId)
    if (!before) throw notFound('Group')
    if (patch.name !== undefined && (await groupNameTaken(tx, workspaceId, patch.name, groupId))) {
      throw nameTaken(patch.name)
    }
    if (patch.accountIds) await assertWorkspaceAccounts(tx, workspaceId, patch.accountIds)
    await updateGroupRow(tx, workspaceId, groupId, patch)
    const accountIds = patch.accountIds && [...new Set(patch.accountIds)]
    if (accountIds) await replaceGroupAccounts(tx, workspaceId, groupId, accountIds)
    await recordGroupActivity(tx, caller, {
      verb: 'updated',
      group: { id: groupId, name: patch.name ?? before.name },
      ...accountMoves(before.accountIds, accountIds),
      fields: patch,
      now: deps.clock.now(),
    })
  })
  return getGroup(deps.db, caller, groupId)
}

/** Deletes the group; its accounts stay. */
export async function deleteGroup(
  deps: GroupDeps,
  caller: Caller,
  groupId: string,
): Promise<{ id: string; deleted: true }> {
  await deps.db.transaction(async (tx) => {
    const before = await selectGroup(tx, caller.workspaceId, groupId)
    if (!before || !(await deleteGroupRow(tx, caller.workspaceId, groupId))) throw notFound('Group')
    await recordGroupActivity(tx, caller, {
      verb: 'deleted',
      group: { id: groupId, name: before.name },
      removed: before.accountIds,
      now: deps.clock.now(),
    })
  })
  return { id: groupId, deleted: true }
}
