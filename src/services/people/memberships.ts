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
} from '../../db/queries/memberships'
import type { Db, DbOrTx, Tx } from '../../db/types'
import { AppError } from '../../domain/errors'
import { accessOf } from '../../domain/access'
import { canManage, type MemberRole } from '../../domain/people'
import { replaceMemberGroups, selectMemberGroupIds } from '../../db/queries/member-groups'
import { selectExistingGroupIds } from '../../db/queries/groups'
import { findUserById } from '../../db/queries/users'
import { lockWorkspace } from '../workspace/lock'
import { recordAdminActivity } from '../activity/admin'
import { callerOfScope, type WorkspaceScope } from '../activity/scope'

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
export async function changeMemberRole(db: Db, scope: WorkspaceScope, userId: string, role: MemberRole): Promise<void> {
  const caller = callerOfScope(scope)
  const { workspaceId } = caller
  await db.transaction(async (tx) => {
    await lockWorkspace(tx, workspaceId)
    const current = await findMembership(tx, workspaceId, userId)
    if (!current) throw new AppError('not_found', 'Member not found.')
    if (current.role === 'owner' && role !== 'owner' && (await countOwners(tx, workspaceId)) <= 1) throw lastOwner()
    await updateMemberRole(tx, workspaceId, userId, role)
    // Owners and admins see the whole workspace: a limit kept from before would come back on a demotion.
    if (canManage(role)) await replaceMemberGroups(tx, { workspaceId, userId }, [])
    if (current.role === role) return
    await recordAdminActivity(tx, caller, {
      action: 'member.role_changed',
      subject: { type: 'member', id: userId },
      words: `changed the role of ${await memberName(tx, userId)} from ${current.role} to ${role}`,
      details: { from: current.role, to: role },
      now: new Date(),
    })
  })
}

/** Removes a member; 404 for someone who is not a member, 400 for the last owner. */
export async function removeMember(db: Db, scope: WorkspaceScope, userId: string): Promise<void> {
  const caller = callerOfScope(scope)
  const { workspaceId } = caller
  await db.transaction(async (tx) => {
    await lockWorkspace(tx, workspaceId)
    const current = await findMembership(tx, workspaceId, userId)
    if (!current) throw new AppError('not_found', 'Member not found.')
    if (current.role === 'owner' && (await countOwners(tx, workspaceId)) <= 1) throw lastOwner()
    const name = await memberName(tx, userId)
    await deleteMembership(tx, workspaceId, userId)
    await recordAdminActivity(tx, caller, {
      action: 'member.removed',
      subject: { type: 'member', id: userId },
      words: `removed ${name} (${current.role}) from the workspace`,
      details: { role: current.role },
      now: new Date(),
    })
  })
}

/** A user's name as the activity log writes it. */
export async function memberName(db: DbOrTx, userId: string): Promise<string> {
  return (await findUserById(db, userId))?.name ?? userId
}

/**
 * Limits a member or reviewer to some account groups (null or none: the whole workspace). 404 for
 * someone who is not a member; 409 for an owner or admin, who always see the whole workspace; 422
 * naming a group that is not this workspace's.
 */
export async function setMemberGroups(
  db: Db,
  scope: WorkspaceScope,
  userId: string,
  groupIds: readonly string[] | null,
): Promise<void> {
  const caller = callerOfScope(scope)
  const { workspaceId } = caller
  const wanted = [...new Set(groupIds ?? [])].sort()
  await db.transaction(async (tx) => {
    await lockWorkspace(tx, workspaceId)
    const current = await findMembership(tx, workspaceId, userId)
    if (!current) throw new AppError('not_found', 'Member not found.')
    if (canManage(current.role)) {
      throw new AppError(
        'invalid_transition',
        `An ${current.role} always sees the whole workspace; only members and reviewers can be limited to groups.`,
      )
    }
    const known = new Set(await selectExistingGroupIds(tx, workspaceId, wanted))
    const unknown = wanted.find((id) => !known.has(id))
    if (unknown) {
      throw new AppError('not_found', `Group ${unknown} is not one of this workspace's.`, {
        details: [{ path: 'groupIds' }],
      })
    }
    const before = await selectMemberGroupIds(tx, workspaceId, userId)
    if (before.join() === wanted.join()) return
    await replaceMemberGroups(tx, { workspaceId, userId }, wanted)
    await recordAdminActivity(tx, caller, {
      action: 'member.groups_changed',
      subject: { type: 'member', id: userId },
      words: wanted.length
        ? `limited ${await memberName(tx, userId)} to ${wanted.length} group${wanted.length === 1 ? '' : 's'}`
        : `gave ${await memberName(tx, userId)} the whole workspace`,
      details: { from: before, to: wanted },
      now: new Date(),
    })
  })
}
