/** Dashboard users: sign-up (a user and the workspace they own), and checking a password at sign-in. */
import { findUserByEmail, findUserById, insertUser, setUserPasswordHash, type UserRow } from '../../db/queries/users'
import { insertMembership } from '../../db/queries/memberships'
import type { DbOrTx } from '../../db/types'
import type { Deps } from '../../deps'
import { AppError } from '../../domain/errors'
import {
  MAX_PASSWORD_LENGTH,
  normalizePassword,
  type PasswordContext,
  passwordLength,
  passwordRefusal,
} from '../../domain/password-policy'
import { isPlausibleEmail, normalizeEmail } from '../../domain/people'
import { newId } from '../../lib/ids'
import { hashPassword, needsRehash, verifyPassword } from '../../lib/password'
import { createWorkspace } from '../workspace/workspaces'

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
  /** The workspace the user creates or joins: a word the password must not be built from. */
  workspaceName?: string
}

/** What setting a password needs: the strength estimate of the rule. */
export type PasswordDeps = Pick<Deps, 'passwordStrength'>

/** The problems of a sign-up form, one detail per field; none when it is acceptable. */
async function checkNewUser(deps: PasswordDeps, input: NewUser): Promise<void> {
  const details: Array<{ path: string; message: string }> = []
  if (!isPlausibleEmail(input.email.trim())) details.push({ path: 'email', message: 'Enter an email address.' })
  const name = input.name.trim()
  if (name.length < 1 || name.length > 100)
    details.push({ path: 'name', message: 'Enter a name (at most 100 characters).' })
  const refused = await newPasswordProblem(deps, input.password, input)
  if (refused) details.push({ path: 'password', message: refused })
  if (details.length > 0) throw new AppError('invalid_request', details[0]!.message, { details })
}

/**
 * Why this password may not be set for this person (the rule of src/domain/password-policy.ts), or
 * null: every place a password is set asks this, with the words of its context.
 */
export async function newPasswordProblem(
  deps: PasswordDeps,
  password: string,
  context: PasswordContext,
): Promise<string | null> {
  return (await passwordRefusal(deps.passwordStrength, password, context))?.message ?? null
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

/** Checks the form (400 naming the field) and hashes the password (NFKC-normalized), outside any transaction. */
export async function prepareUser(deps: PasswordDeps, input: NewUser): Promise<PreparedUser> {
  await checkNewUser(deps, input)
  const passwordHash = await hashPassword(normalizePassword(input.password))
  return { email: input.email.trim(), name: input.name.trim(), passwordHash }
}

/** Inserts a prepared user; 400 when the email is taken (in any case). */
export async function insertPreparedUser(db: DbOrTx, user: PreparedUser): Promise<UserView> {
  const row = await insertUser(db, { id: newId('user'), ...user })
  if (!row) throw emailTaken()
  return toUserView(row)
}

/** Creates a user (no workspace); 400 when the form is incomplete or the email is taken. */
export async function createUser(deps: Pick<Deps, 'db' | 'passwordStrength'>, input: NewUser): Promise<UserView> {
  return insertPreparedUser(deps.db, await prepareUser(deps, input))
}

/** Sign-up: the user and a workspace of their own (they are its owner), in one transaction. */
export async function signUp(
  deps: Pick<Deps, 'db' | 'passwordStrength'>,
  input: NewUser & { workspaceName?: string; timezone?: string },
): Promise<{ user: UserView; workspaceId: string }> {
  const workspaceName = input.workspaceName?.trim() || `${input.name.trim()}'s workspace`
  // Hashing is slow: done before the transaction opens.
  const prepared = await prepareUser(deps, { ...input, workspaceName })
  return deps.db.transaction(async (tx) => {
    const row = await insertPreparedUser(tx, prepared)
    const workspace = await createWorkspace(tx, {
      name: workspaceName,
      planId: 'free',
      timezone: input.timezone ?? 'UTC',
    })
    await insertMembership(tx, { workspaceId: workspace.id, userId: row.id, role: 'owner' })
    return { user: row, workspaceId: workspace.id }
  })
}

/**
 * The user whose email and password these are, or null: an unknown email and a wrong password
 * give the same answer after the same work. The password is compared NFKC-normalized, as it was
 * hashed; a hash made before passwords were normalized, or with fewer iterations than today's, is
 * replaced on the way.
 */
export async function checkPassword(db: DbOrTx, email: string, password: string): Promise<UserView | null> {
  // Bounded before normalizing (NFKC may grow a string up to 18 times), then counted as the rule counts.
  const usable = password.length <= 4 * MAX_PASSWORD_LENGTH && passwordLength(password) <= MAX_PASSWORD_LENGTH
  const secret = usable ? normalizePassword(password) : ''
  const row = usable ? await findUserByEmail(db, normalizeEmail(email)) : null
  const stored = row?.passwordHash ?? UNKNOWN_USER_HASH
  const matches = await verifyPassword(secret, stored)
  // A hash made before normalization: the password as typed, tried whether or not the email is
  // known (the work depends on the password alone, never on the account existing).
  const legacy = usable && !matches && secret !== password && (await verifyPassword(password, stored))
  if (!row || !(matches || legacy)) return null
  if (legacy || needsRehash(row.passwordHash)) await setUserPasswordHash(db, row.id, await hashPassword(secret))
  return toUserView(row)
}

/** The user, or null. */
export async function getUser(db: DbOrTx, userId: string): Promise<UserView | null> {
  const row = await findUserById(db, userId)
  return row ? toUserView(row) : null
}
