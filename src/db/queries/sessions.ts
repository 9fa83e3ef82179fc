/** Queries of dashboard sessions: found by the SHA-256 of the cookie's token, live until expired or revoked. */
import { and, eq, gt, isNull, sql } from 'drizzle-orm'
import { sessions, users } from '../schema'
import type { DbOrTx } from '../types'

export async function insertSession(
  db: DbOrTx,
  values: { id: string; userId: string; tokenHash: string; csrfToken: string; expiresAt: Date; lastSeenAt: Date },
): Promise<void> {
  await db.insert(sessions).values(values)
}

/** The live session with this token hash and its user; null when unknown, revoked, expired or idle since `idleSince`. */
export async function findLiveSession(db: DbOrTx, tokenHash: string, now: Date, idleSince: Date) {
  const [row] = await db
    .select({
      id: sessions.id,
      tokenHash: sessions.tokenHash,
      csrfToken: sessions.csrfToken,
      lastWorkspaceId: sessions.lastWorkspaceId,
      expiresAt: sessions.expiresAt,
      lastSeenAt: sessions.lastSeenAt,
      userId: users.id,
      email: users.email,
      name: users.name,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.tokenHash, tokenHash),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, now),
        gt(sessions.lastSeenAt, idleSince),
      ),
    )
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

/** Notes that the session was used now. */
export async function touchSession(db: DbOrTx, sessionId: string, now: Date): Promise<void> {
  await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, sessionId))
}

/** Deletes up to `limit` sessions that ended before `before` (expired, revoked, or idle since then). */
export async function deleteEndedSessions(db: DbOrTx, before: Date, idleSince: Date, limit: number): Promise<number> {
  const rows = await db
    .delete(sessions)
    .where(
      sql`${sessions.id} in (select id from sessions where expires_at < ${before} or revoked_at < ${before}
        or last_seen_at < ${idleSince} limit ${limit})`,
    )
    .returning({ id: sessions.id })
  return rows.length
}
