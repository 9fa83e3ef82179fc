/**
 * Dashboard sessions: a random token in an HttpOnly cookie, stored as its SHA-256 only, expiring and
 * revocable; each session carries its own CSRF token. Signing in always starts a new session (the
 * one the browser had, if any, is revoked): a session id planted before sign-in is worth nothing after.
 */
import {
  findLiveSession,
  insertSession,
  revokeSessionById,
  revokeUserSessions,
  setSessionLastWorkspace,
} from '../db/queries/sessions'
import type { DbOrTx } from '../db/types'
import { sha256Hex } from '../lib/crypto'
import { newId, randomBase62 } from '../lib/ids'

/** How long a session lasts from sign-in. */
export const SESSION_TTL_MS = 7 * 24 * 3600 * 1000

export interface StartedSession {
  /** The cookie's value; only its hash is stored. */
  token: string
  csrfToken: string
  expiresAt: Date
}

export interface LiveSession {
  sessionId: string
  userId: string
  email: string
  name: string
  csrfToken: string
  lastWorkspaceId: string | null
  expiresAt: Date
}

/** A new session for the user; the browser's previous one (its cookie's token), if any, is revoked. */
export async function startSession(
  db: DbOrTx,
  userId: string,
  now: Date,
  previousToken?: string | null,
): Promise<StartedSession> {
  if (previousToken) await endSession(db, previousToken, now)
  const token = randomBase62(43)
  const csrfToken = randomBase62(32)
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS)
  await insertSession(db, { id: newId('session'), userId, tokenHash: await sha256Hex(token), csrfToken, expiresAt })
  return { token, csrfToken, expiresAt }
}

/** The live session of a cookie's token, or null (unknown, malformed, revoked or expired). */
export async function resolveSession(db: DbOrTx, token: string, now: Date): Promise<LiveSession | null> {
  if (!/^[0-9A-Za-z]{43}$/.test(token)) return null
  const row = await findLiveSession(db, await sha256Hex(token), now)
  if (!row) return null
  return {
    sessionId: row.id,
    userId: row.userId,
    email: row.email,
    name: row.name,
    csrfToken: row.csrfToken,
    lastWorkspaceId: row.lastWorkspaceId,
    expiresAt: row.expiresAt,
  }
}

/** Sign-out: the session of this token ends now (nothing happens for an unknown one). */
export async function endSession(db: DbOrTx, token: string, now: Date): Promise<void> {
  const session = await resolveSession(db, token, now)
  if (session) await revokeSessionById(db, session.sessionId, now)
}

/** Ends every session of the user (every browser is signed out). */
export function endUserSessions(db: DbOrTx, userId: string, now: Date): Promise<void> {
  return revokeUserSessions(db, userId, now)
}

/** Notes the workspace the session last opened, where `/app` goes next time. */
export function rememberWorkspace(db: DbOrTx, sessionId: string, workspaceId: string): Promise<void> {
  return setSessionLastWorkspace(db, sessionId, workspaceId)
}
