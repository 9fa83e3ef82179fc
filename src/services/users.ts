/** Dashboard users: sign-up (a user and the workspace they own), and checking a password at sign-in. */
import { findUserByEmail, findUserById, insertUser, setUserPasswordHash, type UserRow } from '../db/queries/users'
import { insertMembership } from '../db/queries/memberships'
import type { Db, DbOrTx } from '../db/types'
import { AppError } from '../domain/errors'
import { isPlausibleEmail, MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, normalizeEmail } from '../domain/people'
import { newId } from '../lib/ids'
import { hashPassword, needsRehash, verifyPassword } from '../lib/password'
import { createWorkspace } from './workspaces'

/** A user as pages show it: never the hash. */
export interface UserView {
  id: string
  email: string
  name: string
}

const toUserView = (row: Pick<UserRow, 'id' | 'email' | 'name'>): UserView => ({
  id: row.id,
  email: row.email,
  name: row.name,
})

/**
 * Compared against when the email is unknown, so that an unknown email costs the same PBKDF2 work as
 * a wrong password and the two cannot be told apart by timing. It matches no password.
 */
const UNKNOWN_USER_HASH =
  'pbkdf2-sha256$600000$100000$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA='

export interface NewUser {
  email: string
  name: string
  password: string
}

/** The problems of a sign-up form, one detail per field; none when it is acceptable. */
function checkNewUser(input: NewUser): void {
  const details: Array<{ path: string; message: string }> = []
  if (!isPlausibleEmail(input.email.trim())) details.push({ path: 'email', message: 'Enter an email address.' })
  const name = input.name.trim()
  if (name.length < 1 || name.length > 100)
    details.push({ path: 'name', message: 'Enter a name (at most 100 characters).' })
  if (input.password.length < MIN_PASSWORD_LENGTH || input.password.length > MAX_PASSWORD_LENGTH)
    details.push({
      path: 'password',
      message: `Use ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters for the password.`,
    })
  if (details.length > 0) throw new AppError('invalid_request', details[0]!.message, { details })
}

const emailTaken = () =>
  new AppError('invalid_request', 'An account with this email already exists; sign in instead.', {
    details: [{ path: 'email', message: 'An account with this email already exists; sign in instead.' }],
  })

/** A sign-up form checked and its password hashed: ready to insert inside a transaction (hashing is slow). */
export interface PreparedUser {
  email: string
  name: string
  passwordHash: string
}

/** Checks the form (400 naming the field) and hashes the password, outside any transaction. */
export async function prepareUser(input: NewUser): Promise<PreparedUser> {
  checkNewUser(input)
  return { email: input.email.trim(), name: input.name.trim(), passwordHash: await hashPassword(input.password) }
}

/** Inserts a prepared user; 400 when the email is taken (in any case). */
export async function insertPreparedUser(db: DbOrTx, user: PreparedUser): Promise<UserView> {
  const row = await insertUser(db, { id: newId('user'), ...user })
  if (!row) throw emailTaken()
  return toUserView(row)
}

/** Creates a user (no workspace); 400 when the form is incomplete or the email is taken. */
export async function createUser(db: DbOrTx, input: NewUser): Promise<UserView> {
  return insertPreparedUser(db, await prepareUser(input))
}

/** Sign-up: the user and a workspace of their own (they are its owner), in one transaction. */
export async function signUp(
  db: Db,
  input: NewUser & { workspaceName?: string; timezone?: string },
): Promise<{ user: UserView; workspaceId: string }> {
  // Hashing is slow: done before the transaction opens.
  const prepared = await prepareUser(input)
  return db.transaction(async (tx) => {
    const row = await insertPreparedUser(tx, prepared)
    const workspace = await createWorkspace(tx, {
      name: input.workspaceName?.trim() || `${row.name}'s workspace`,
      planId: 'free',
      timezone: input.timezone ?? 'UTC',
    })
    await insertMembership(tx, { workspaceId: workspace.id, userId: row.id, role: 'owner' })
    return { user: row, workspaceId: workspace.id }
  })
}

/**
 * The user whose email and password these are, or null: an unknown email and a wrong password
 * give the same answer after the same work. A hash made with fewer iterations than today's is
 * replaced on the way.
 */
export async function checkPassword(db: DbOrTx, email: string, password: string): Promise<UserView | null> {
  const row = password.length <= MAX_PASSWORD_LENGTH ? await findUserByEmail(db, normalizeEmail(email)) : null
  const ok = await verifyPassword(password.slice(0, MAX_PASSWORD_LENGTH), row?.passwordHash ?? UNKNOWN_USER_HASH)
  if (!row || !ok) return null
  if (needsRehash(row.passwordHash)) await setUserPasswordHash(db, row.id, await hashPassword(password))
  return toUserView(row)
}

/** The user, or null. */
export async function getUser(db: DbOrTx, userId: string): Promise<UserView | null> {
  const row = await findUserById(db, userId)
  return row ? toUserView(row) : null
}
