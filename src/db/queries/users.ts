/** Queries of dashboard users: found by email whatever its case (the unique index is on lower(email)). */
import { eq, sql } from 'drizzle-orm'
import { users } from '../schema'
import type { DbOrTx } from '../types'

export type UserRow = typeof users.$inferSelect

/** Inserts the user; null when the email is already taken (in any case). */
export async function insertUser(
  db: DbOrTx,
  values: { id: string; email: string; name: string; passwordHash: string },
): Promise<UserRow | null> {
  const [row] = await db.insert(users).values(values).onConflictDoNothing().returning()
  return row ?? null
}

/** The user with this email, compared case-insensitively; null when there is none. */
export async function findUserByEmail(db: DbOrTx, email: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(sql`lower(${users.email}) = lower(${email})`).limit(1)
  return row ?? null
}

export async function findUserById(db: DbOrTx, userId: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.id, userId)).limit(1)
  return row ?? null
}

export async function setUserPasswordHash(db: DbOrTx, userId: string, passwordHash: string): Promise<void> {
  await db.update(users).set({ passwordHash }).where(eq(users.id, userId))
}
