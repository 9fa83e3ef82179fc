/** Queries of the account groups a member or reviewer is limited to (`membership_groups`). */
import { and, asc, eq } from 'drizzle-orm'
import type { MemberRole } from '../../domain/people'
import { membershipGroups, memberships, users } from '../schema'
import type { DbOrTx } from '../types'

/** The groups the member is limited to (none: the whole workspace). */
export async function selectMemberGroupIds(db: DbOrTx, workspaceId: string, userId: string): Promise<string[]> {
  const rows = await db
    .select({ groupId: membershipGroups.groupId })
    .from(membershipGroups)
    .where(and(eq(membershipGroups.workspaceId, workspaceId), eq(membershipGroups.userId, userId)))
    .orderBy(asc(membershipGroups.groupId))
  return rows.map((r) => r.groupId)
}

/** The user's role in the workspace, their name and their groups; null when they are not a member. */
export async function selectMemberAccess(
  db: DbOrTx,
  workspaceId: string,
  userId: string,
): Promise<{ role: MemberRole; userName: string; groupIds: string[] } | null> {
  const rows = await db
    .select({ role: memberships.role, userName: users.name, groupId: membershipGroups.groupId })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .leftJoin(
      membershipGroups,
      and(eq(membershipGroups.workspaceId, memberships.workspaceId), eq(membershipGroups.userId, memberships.userId)),
    )
    .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, userId)))
  const first = rows[0]
  if (!first) return null
  const groupIds = rows.flatMap((r) => (r.groupId === null ? [] : [r.groupId])).sort()
  return { role: first.role, userName: first.userName, groupIds }
}

/** Replaces the member's groups (none: the whole workspace). */
export async function replaceMemberGroups(
  db: DbOrTx,
  member: { workspaceId: string; userId: string },
  groupIds: readonly string[],
): Promise<void> {
  await db
    .delete(membershipGroups)
    .where(and(eq(membershipGroups.workspaceId, member.workspaceId), eq(membershipGroups.userId, member.userId)))
  if (groupIds.length === 0) return
  await db.insert(membershipGroups).values(groupIds.map((groupId) => ({ ...member, groupId })))
}
