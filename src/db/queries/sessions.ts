/** Queries of dashboard sessions: found by the SHA-256 of the cookie's token, live until expired or revoked. */
import { and, eq, gt, isNull } from 'drizzle-orm'
import { sessions, users } from '../schema'
import type { DbOrTx } from '../types'

export async function insertSession(
  db: DbOrTx,
  values: { id: string; userId: string; tokenHash: string; csrfToken: string; expiresAt: Date },
): Promise<void> {
  await db.insert(sessions).values(values)
}

/** The live session with this token hash and its user; null when unknown, revoked or expired. */
export async function findLiveSession(db: DbOrTx, tokenHash: string, now: Date) {
  const [row] = await db
    .select({
      id: sessions.id,
      tokenHash: sessions.tokenHash,
      csrfToken: sessions.csrfToken,
      lastWorkspaceId: sessions.lastWorkspaceId,
      expiresAt: sessions.expiresAt,
      userId: users.id,
      email: users.email,
      name: users.name,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, tokenHash), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
    .limit(1)
  return row ?? null
}

/** Ends the session (sign-out, rotation). */
export async function revokeSessionById(db: DbOrTx, sessionId: string, now: Date): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)))
}

/** Ends every live session of the user (password change, removal). */
export async function revokeUserSessions(db: DbOrTx, userId: string, now: Date): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)))
}

export async function setSessionLastWorkspace(db: DbOrTx, sessionId: string, workspaceId: string): Promise<void> {
  await db.update(sessions).set({ lastWorkspaceId: workspaceId }).where(eq(sessions.id, sessionId))
}
