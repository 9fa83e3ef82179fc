/** Queries of invitations by link: found by the SHA-256 of the link's token, used at most once. */
import { and, desc, eq, isNull } from 'drizzle-orm'
import type { MemberRole } from '../../domain/people'
import { invitations, workspaces } from '../schema'
import type { DbOrTx } from '../types'

export async function insertInvitation(
  db: DbOrTx,
  values: { id: string; workspaceId: string; tokenHash: string; role: MemberRole; invitedBy: string; expiresAt: Date },
): Promise<void> {
  await db.insert(invitations).values(values)
}

/** The invitation with this token hash and its workspace's name, whatever its state; null when unknown. */
export async function findInvitationByHash(db: DbOrTx, tokenHash: string) {
  const [row] = await db
    .select({
      id: invitations.id,
      workspaceId: invitations.workspaceId,
      workspaceName: workspaces.name,
      tokenHash: invitations.tokenHash,
      role: invitations.role,
      expiresAt: invitations.expiresAt,
      acceptedAt: invitations.acceptedAt,
      revokedAt: invitations.revokedAt,
    })
    .from(invitations)
    .innerJoin(workspaces, eq(workspaces.id, invitations.workspaceId))
    .where(eq(invitations.tokenHash, tokenHash))
    .limit(1)
  return row ?? null
}

/** Marks the invitation used by `userId`, if nobody used it meanwhile; whether this call did. */
export async function markInvitationAccepted(db: DbOrTx, id: string, userId: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(invitations)
    .set({ acceptedAt: now, acceptedBy: userId })
    .where(and(eq(invitations.id, id), isNull(invitations.acceptedAt), isNull(invitations.revokedAt)))
    .returning({ id: invitations.id })
  return rows.length > 0
}

/** The workspace's invitations, newest first. */
export function selectWorkspaceInvitations(db: DbOrTx, workspaceId: string) {
  return db
    .select({
      id: invitations.id,
      role: invitations.role,
      expiresAt: invitations.expiresAt,
      acceptedAt: invitations.acceptedAt,
      revokedAt: invitations.revokedAt,
      createdAt: invitations.createdAt,
    })
    .from(invitations)
    .where(eq(invitations.workspaceId, workspaceId))
    .orderBy(desc(invitations.createdAt))
}

/** Revokes a pending invitation of the workspace; whether one was. */
export async function revokeInvitationRow(db: DbOrTx, workspaceId: string, id: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(invitations)
    .set({ revokedAt: now })
    .where(
      and(
        eq(invitations.id, id),
        eq(invitations.workspaceId, workspaceId),
        isNull(invitations.acceptedAt),
        isNull(invitations.revokedAt),
      ),
    )
    .returning({ id: invitations.id })
  return rows.length > 0
}
