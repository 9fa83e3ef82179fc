/**
 * Queries of the connected-account aggregate: listing and finding accounts, the count the plan
 * cap reads, and the writes of sealed credentials and of an account's status.
 */
import { and, asc, count, eq, inArray, max, ne, sql } from 'drizzle-orm'
import { accounts, targets } from '../schema'
import { selectTableRows } from '../table-rows'
import type { DbOrTx, Tx } from '../types'
import { accountScopeConditions, type ScopeFilter } from './scope'

export type AccountRow = typeof accounts.$inferSelect

/** When each of these accounts last had a target published (accounts that never did are absent). */
export async function lastPublishedAt(db: DbOrTx, accountIds: string[]): Promise<Map<string, Date>> {
  if (accountIds.length === 0) return new Map()
  const rows = await db
    .select({ accountId: targets.accountId, at: max(targets.publishedAt) })
    .from(targets)
    .where(and(inArray(targets.accountId, accountIds), eq(targets.status, 'PUBLISHED')))
    .groupBy(targets.accountId)
  return new Map(rows.filter((r) => r.at !== null).map((r) => [r.accountId, r.at as Date]))
}

/** The workspace's accounts, oldest first (with `scope`: those of a group, or of a limited caller's groups). */
export function listWorkspaceAccounts(db: DbOrTx, workspaceId: string, scope: ScopeFilter = {}): Promise<AccountRow[]> {
  return db
    .select()
    .from(accounts)
    .where(and(eq(accounts.workspaceId, workspaceId), ...accountScopeConditions(sql`${accounts.id}`, scope)))
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
/** The workspace's accounts among `ids` whose token expires at or before `before` (sealed credentials included). */
export function selectAccountsExpiringBy(db: DbOrTx, workspaceId: string, ids: string[], before: Date) {
  return db
    .select()
    .from(accounts)
    .where(
      and(
        eq(accounts.workspaceId, workspaceId),
        inArray(accounts.id, ids),
        sql`${accounts.tokenExpiresAt} <= ${before}`,
      ),
    )
}

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
  tokenExpiresAt: Date | null
  captionMaxLength: number | null
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

/**
 * Stores renewed (sealed) credentials and their expiry, and the caption budget when the renewal read
 * one, stamped with the database's own clock.
 */
export async function saveAccountCredentials(
  tx: DbOrTx,
  accountId: string,
  renewed: { sealed: string; tokenExpiresAt: Date | null; captionMaxLength?: number | null | undefined },
): Promise<void> {
  const { sealed, tokenExpiresAt, captionMaxLength } = renewed
  await tx
    .update(accounts)
    .set({
      credentials: sealed,
      tokenExpiresAt,
      ...(captionMaxLength !== undefined ? { captionMaxLength } : {}),
      updatedAt: sql`now()`,
    })
    .where(eq(accounts.id, accountId))
}

/** The account, locked (FOR UPDATE) within its workspace; null when it is not the workspace's. */
export async function lockWorkspaceAccount(tx: Tx, workspaceId: string, accountId: string): Promise<AccountRow | null> {
  const [row] = await tx
    .select()
    .from(accounts)
    .where(and(eq(accounts.id, accountId), eq(accounts.workspaceId, workspaceId)))
    .for('update')
  return row ?? null
}

/** The workspace's account on this platform with this network identity, if there is one. */
export async function findAccountByIdentity(
  db: DbOrTx,
  workspaceId: string,
  platform: AccountRow['platform'],
  externalId: string,
): Promise<AccountRow | null> {
  const [row] = await db
    .select()
    .from(accounts)
    .where(
      and(eq(accounts.workspaceId, workspaceId), eq(accounts.platform, platform), eq(accounts.externalId, externalId)),
    )
    .orderBy(asc(accounts.createdAt))
    .limit(1)
  return row ?? null
}

/** New credentials for an account (connected again): ACTIVE, its name and identity as the network gave them. */
export async function reconnectAccountRow(
  tx: DbOrTx,
  accountId: string,
  values: {
    username: string
    externalId: string
    credentials: string
    tokenExpiresAt: Date | null
    captionMaxLength: number | null
  },
): Promise<AccountRow> {
  const [row] = await tx
    .update(accounts)
    .set({
      ...values,
      status: 'ACTIVE',
      statusMessage: null,
      connectedAt: sql`now()`,
      updatedAt: sql`now()`,
    })
    .where(eq(accounts.id, accountId))
    .returning()
  return row!
}

/** Disconnected: credentials wiped (nothing left to decrypt), kept for history with the reason. */
export async function markAccountDisconnected(tx: DbOrTx, accountId: string, statusMessage: string): Promise<void> {
  await tx
    .update(accounts)
    .set({ status: 'DISCONNECTED', statusMessage, credentials: '', tokenExpiresAt: null, updatedAt: sql`now()` })
    .where(eq(accounts.id, accountId))
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

/** These accounts, in one read (the publishing engine's batch of claimed targets). */
export function listAccountsByIds(db: DbOrTx, accountIds: string[]): Promise<AccountRow[]> {
  if (accountIds.length === 0) return Promise.resolve([])
  return selectTableRows(db, accounts, sql`select * from accounts where id = any(${sql.param(accountIds)}::text[])`)
}
