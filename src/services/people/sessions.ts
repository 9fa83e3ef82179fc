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
  touchSession,
  deleteEndedSessions,
} from '../../db/queries/sessions'
import type { DbOrTx } from '../../db/types'
import { sha256Hex } from '../../lib/crypto'
import { newId, randomBase62 } from '../../lib/ids'

/** How long a session lasts from sign-in, however busy. */
export const SESSION_TTL_MS = 7 * 24 * 3600 * 1000
/** A session unused for this long has ended (a browser left signed in on a shared machine). */
export const SESSION_IDLE_MS = 12 * 3600 * 1000
/** How stale the recorded last use may get before a request writes it again (one write per spell, not per page). */
const TOUCH_AFTER_MS = 5 * 60 * 1000

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
  const tokenHash = await sha256Hex(token)
  await insertSession(db, { id: newId('session'), userId, tokenHash, csrfToken, expiresAt, lastSeenAt: now })
  return { token, csrfToken, expiresAt }
}

/** The live session of a cookie's token, or null (unknown, malformed, revoked, expired or idle too long). */
export async function resolveSession(db: DbOrTx, token: string, now: Date): Promise<LiveSession | null> {
  if (!/^[0-9A-Za-z]{43}$/.test(token)) return null
  const row = await findLiveSession(db, await sha256Hex(token), now, new Date(now.getTime() - SESSION_IDLE_MS))
  if (!row) return null
  if (now.getTime() - row.lastSeenAt.getTime() > TOUCH_AFTER_MS) await touchSession(db, row.id, now)
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

/** Removes sessions that ended more than a day ago (they can never be used again); how many went. */
export function deleteEndedSessionsBefore(db: DbOrTx, now: Date, limit = 500): Promise<number> {
  const dayAgo = new Date(now.getTime() - 24 * 3600_000)
  return deleteEndedSessions(db, dayAgo, new Date(dayAgo.getTime() - SESSION_IDLE_MS), limit)
}
