/**
 * Queries of the connected-account aggregate: listing and finding accounts, the count the plan
 * cap reads, and the writes of sealed credentials and of an account's status.
 */
import { and, asc, count, eq, ne, sql } from 'drizzle-orm'
import { accounts } from '../schema'
import type { DbOrTx, Tx } from '../types'

export type AccountRow = typeof accounts.$inferSelect

/** The workspace's accounts, oldest first. */
export function listWorkspaceAccounts(db: DbOrTx, workspaceId: string): Promise<AccountRow[]> {
  return db
    .select()
    .from(accounts)
    .where(eq(accounts.workspaceId, workspaceId))
    .orderBy(asc(accounts.createdAt), asc(accounts.id))
}

/** The account if it belongs to the workspace, else null. */
export async function findWorkspaceAccount(
  db: DbOrTx,
  workspaceId: string,
  accountId: string,
): Promise<AccountRow | null> {
  const [row] = await db
    .select()
    .from(accounts)
    .where(and(eq(accounts.id, accountId), eq(accounts.workspaceId, workspaceId)))
  return row ?? null
}

/** The account by id alone (the engine already knows the workspace from the target). */
export async function findAccount(db: DbOrTx, accountId: string): Promise<AccountRow | null> {
  const [account] = await db.select().from(accounts).where(eq(accounts.id, accountId))
  return account ?? null
}

/** Accounts the plan's `socialAccounts` cap counts: every one not DISCONNECTED. */
export async function countConnectedAccounts(tx: DbOrTx, workspaceId: string): Promise<number> {
  const [used] = await tx
    .select({ n: count() })
    .from(accounts)
    .where(and(eq(accounts.workspaceId, workspaceId), ne(accounts.status, 'DISCONNECTED')))
  return used?.n ?? 0
}

export interface NewAccountRow {
  id: string
  workspaceId: string
  platform: AccountRow['platform']
  connection: AccountRow['connection']
  username: string
  externalId: string | null
  /** Sealed by the credential cipher. */
  credentials: string
}

/** Inserts the account, stamped with the database's own clock. */
export async function insertAccountRow(tx: DbOrTx, values: NewAccountRow): Promise<AccountRow> {
  const [row] = await tx
    .insert(accounts)
    .values({ ...values, updatedAt: sql`now()` })
    .returning()
  return row!
}

/** The stored credentials and status, locked (FOR UPDATE) so one renewal at a time rotates them. */
export async function lockAccountCredentials(
  tx: Tx,
  accountId: string,
): Promise<Pick<AccountRow, 'credentials' | 'status'> | null> {
  const [locked] = await tx
    .select({ credentials: accounts.credentials, status: accounts.status })
    .from(accounts)
    .where(eq(accounts.id, accountId))
    .for('update')
  return locked ?? null
}

/** Stores renewed (sealed) credentials, stamped with the database's own clock. */
export async function saveAccountCredentials(tx: DbOrTx, accountId: string, sealed: string): Promise<void> {
  await tx.update(accounts).set({ credentials: sealed, updatedAt: sql`now()` }).where(eq(accounts.id, accountId))
}

/** The network no longer takes the account's token: EXPIRED, with what the user should do. */
export async function markAccountExpired(
  tx: DbOrTx,
  accountId: string,
  statusMessage: string,
  now: Date,
): Promise<void> {
  await tx.update(accounts).set({ status: 'EXPIRED', statusMessage, updatedAt: now }).where(eq(accounts.id, accountId))
}
