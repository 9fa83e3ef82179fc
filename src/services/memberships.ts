/**
 * Workspace membership: who may open a workspace in the dashboard and with which role. Seats are the
 * plan's `seats` cap on members, checked under the workspace lock so two acceptances cannot overshoot it.
 */
import {
  countMembers,
  countOwners,
  deleteMembership,
  findMembership,
  insertMembership,
  selectUserWorkspaces,
  selectWorkspaceMembers,
  updateMemberRole,
} from '../db/queries/memberships'
import type { Db, DbOrTx, Tx } from '../db/types'
import { AppError } from '../domain/errors'
import { accessOf } from '../domain/access'
import { canManage, type MemberRole } from '../domain/people'
import { selectMemberGroupIds } from '../db/queries/member-groups'
import { lockWorkspace } from './workspace-lock'

export interface Membership {
  workspaceId: string
  workspaceName: string
  timeZone: string
  role: MemberRole
}

/** The user's membership of the workspace, or null when they are not a member (pages then answer 404). */
export function getMembership(db: DbOrTx, workspaceId: string, userId: string): Promise<Membership | null> {
  return findMembership(db, workspaceId, userId)
}

/** The groups the member is limited to: null for the whole workspace (owners and admins, or no group given). */
export async function listMemberGroupIds(
  db: DbOrTx,
  membership: { workspaceId: string; role: MemberRole },
  userId: string,
): Promise<string[] | null> {
  if (canManage(membership.role)) return null
  const ids = await selectMemberGroupIds(db, membership.workspaceId, userId)
  return accessOf(membership.role, ids).groupIds as string[] | null
}

/** Every workspace the user belongs to (the switcher). */
export function listUserWorkspaces(db: DbOrTx, userId: string) {
  return selectUserWorkspaces(db, userId)
}

export interface MemberView {
  userId: string
  email: string
  name: string
  role: MemberRole
  joinedAt: string
}

/** The workspace's members, oldest first. */
export async function listMembers(db: DbOrTx, workspaceId: string): Promise<MemberView[]> {
  const rows = await selectWorkspaceMembers(db, workspaceId)
  return rows.map((r) => ({ ...r, joinedAt: r.joinedAt.toISOString() }))
}

/** 403 `plan_limit_reached` when the workspace has no free seat (the workspace must be locked by the caller). */
export async function assertFreeSeat(tx: Tx, workspaceId: string): Promise<void> {
  const ws = await lockWorkspace(tx, workspaceId)
  if (ws.seats < 0) return
  const used = await countMembers(tx, workspaceId)
  if (used >= ws.seats) {
    throw new AppError(
      'plan_limit_reached',
      `Your plan allows ${ws.seats} seats and all ${used} are taken; remove a member or upgrade the plan.`,
      { details: [{ path: 'seats', limit: ws.seats, actual: used + 1 }] },
    )
  }
}

/** Adds the user with the role if a seat is free; an existing member keeps their role. */
export async function addMember(tx: Tx, workspaceId: string, userId: string, role: MemberRole): Promise<void> {
  if (await findMembership(tx, workspaceId, userId)) return
  await assertFreeSeat(tx, workspaceId)
  await insertMembership(tx, { workspaceId, userId, role })
}

const lastOwner = () =>
  new AppError('invalid_request', 'A workspace keeps at least one owner; make someone else owner first.', {
    details: [{ path: 'role' }],
  })

/** Changes a member's role; 404 for someone who is not a member, 400 when it would leave no owner. */
export async function changeMemberRole(db: Db, workspaceId: string, userId: string, role: MemberRole): Promise<void> {
  await db.transaction(async (tx) => {
    await lockWorkspace(tx, workspaceId)
    const current = await findMembership(tx, workspaceId, userId)
    if (!current) throw new AppError('not_found', 'Member not found.')
    if (current.role === 'owner' && role !== 'owner' && (await countOwners(tx, workspaceId)) <= 1) throw lastOwner()
    await updateMemberRole(tx, workspaceId, userId, role)
  })
}

/** Removes a member; 404 for someone who is not a member, 400 for the last owner. */
export async function removeMember(db: Db, workspaceId: string, userId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await lockWorkspace(tx, workspaceId)
    const current = await findMembership(tx, workspaceId, userId)
    if (!current) throw new AppError('not_found', 'Member not found.')
    if (current.role === 'owner' && (await countOwners(tx, workspaceId)) <= 1) throw lastOwner()
    await deleteMembership(tx, workspaceId, userId)
  })
}
