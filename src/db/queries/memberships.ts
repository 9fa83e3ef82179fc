/** Queries of workspace memberships: who belongs to a workspace, with which role. */
import { and, asc, count, eq } from 'drizzle-orm'
import type { MemberRole } from '../../domain/people'
import { memberships, plans, users, workspaces } from '../schema'
import type { DbOrTx } from '../types'

export async function insertMembership(
  db: DbOrTx,
  values: { workspaceId: string; userId: string; role: MemberRole },
): Promise<boolean> {
  const rows = await db.insert(memberships).values(values).onConflictDoNothing().returning({ id: memberships.userId })
  return rows.length > 0
}

/** The user's membership of the workspace, with the workspace's name and zone; null when not a member. */
export async function findMembership(db: DbOrTx, workspaceId: string, userId: string) {
  const [row] = await db
    .select({
      role: memberships.role,
      workspaceId: workspaces.id,
      workspaceName: workspaces.name,
      timeZone: workspaces.timezone,
    })
    .from(memberships)
    .innerJoin(workspaces, eq(workspaces.id, memberships.workspaceId))
    .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, userId)))
    .limit(1)
  return row ?? null
}

/** Every workspace the user belongs to, by name. */
export function selectUserWorkspaces(db: DbOrTx, userId: string) {
  return db
    .select({ workspaceId: workspaces.id, name: workspaces.name, role: memberships.role })
    .from(memberships)
    .innerJoin(workspaces, eq(workspaces.id, memberships.workspaceId))
    .where(eq(memberships.userId, userId))
    .orderBy(asc(workspaces.name), asc(workspaces.id))
}

/** The workspace's members, oldest first. */
export function selectWorkspaceMembers(db: DbOrTx, workspaceId: string) {
  return db
    .select({
      userId: users.id,
      email: users.email,
      name: users.name,
      role: memberships.role,
      joinedAt: memberships.createdAt,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.workspaceId, workspaceId))
    .orderBy(asc(memberships.createdAt), asc(users.id))
}

/** Seats in use: the workspace's members. */
export async function countMembers(db: DbOrTx, workspaceId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(memberships).where(eq(memberships.workspaceId, workspaceId))
  return row?.n ?? 0
}

/** The plan's seat cap of the workspace (-1: unlimited); null when there is no such workspace. */
export async function findSeatLimit(db: DbOrTx, workspaceId: string): Promise<number | null> {
  const [row] = await db
    .select({ seats: plans.seats })
    .from(workspaces)
    .innerJoin(plans, eq(plans.id, workspaces.planId))
    .where(eq(workspaces.id, workspaceId))
  return row?.seats ?? null
}

/** Owners of the workspace (a workspace keeps at least one). */
export async function countOwners(db: DbOrTx, workspaceId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(memberships)
    .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.role, 'owner')))
  return row?.n ?? 0
}

export async function updateMemberRole(db: DbOrTx, workspaceId: string, userId: string, role: MemberRole) {
  const rows = await db
    .update(memberships)
    .set({ role })
    .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, userId)))
    .returning({ userId: memberships.userId })
  return rows.length > 0
}

export async function deleteMembership(db: DbOrTx, workspaceId: string, userId: string): Promise<boolean> {
  const rows = await db
    .delete(memberships)
    .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, userId)))
    .returning({ userId: memberships.userId })
  return rows.length > 0
}
