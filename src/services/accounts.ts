import {
  type AccountRow,
  countConnectedAccounts,
  findAccount,
  findWorkspaceAccount,
  insertAccountRow,
  listWorkspaceAccounts,
  markAccountExpired,
} from '../db/queries/accounts'
import type { Db, Tx } from '../db/types'
import { AppError } from '../domain/errors'
import type { CredentialCipher } from '../infra/credential-cipher'
import { newId } from '../lib/ids'
import { lockWorkspace } from './workspace-lock'
import { recordEvent, type Outbox } from './webhooks/outbox'
import type { AccountStatus, Connection, PlatformId, SandboxFailMode } from '../domain/vocabulary'

export interface AccountRecord {
  id: string
  platform: PlatformId
  username: string
  status: AccountStatus
  connection: Connection
  /** Why the account is not ACTIVE, and what to do about it; null when ACTIVE. */
  statusMessage: string | null
  createdAt: string
}

export function toAccountRecord(row: AccountRow): AccountRecord {
  return {
    id: row.id,
    platform: row.platform,
    username: row.username,
    status: row.status,
    connection: row.connection,
    statusMessage: row.statusMessage,
    createdAt: row.createdAt.toISOString(),
  }
}

export async function listAccounts(db: Db, workspaceId: string): Promise<AccountRecord[]> {
  const rows = await listWorkspaceAccounts(db, workspaceId)
  return rows.map(toAccountRecord)
}

/** One account of the workspace, or 404 (an id of another workspace does not exist for the caller). */
export async function getAccountRow(db: Db, workspaceId: string, accountId: string): Promise<AccountRow> {
  const row = await findWorkspaceAccount(db, workspaceId, accountId)
  if (!row) throw new AppError('not_found', 'Account not found.')
  return row
}

/** One account of the workspace as the API shows it, or 404. */
export async function getAccount(db: Db, workspaceId: string, accountId: string): Promise<AccountRecord> {
  return toAccountRecord(await getAccountRow(db, workspaceId, accountId))
}

export interface NewAccount {
  workspaceId: string
  platform: PlatformId
  username: string
  connection: Connection
  credentials: Record<string, unknown>
  externalId?: string | null
}

/**
 * Stores a connected account with its credentials encrypted. The plan's `socialAccounts` cap is
 * checked under a lock on the workspace row, so concurrent additions cannot overshoot it.
 */
export async function insertAccount(db: Db, cipher: CredentialCipher, input: NewAccount): Promise<AccountRecord> {
  const id = newId('account')
  const sealed = await cipher.encrypt(input.credentials, id)
  return db.transaction(async (tx) => {
    const ws = await lockWorkspace(tx, input.workspaceId)
    if (ws.socialAccounts >= 0) {
      const used = await countConnectedAccounts(tx, input.workspaceId)
      if (used >= ws.socialAccounts) {
        throw new AppError(
          'plan_limit_reached',
          `Your plan allows ${ws.socialAccounts} connected accounts; disconnect one or upgrade the plan.`,
          {
            details: [{ path: 'socialAccounts', limit: ws.socialAccounts, actual: used + 1 }],
          },
        )
      }
    }
    const row = await insertAccountRow(tx, {
      id,
      workspaceId: input.workspaceId,
      platform: input.platform,
      connection: input.connection,
      username: input.username,
      externalId: input.externalId ?? null,
      credentials: sealed,
    })
    const record = toAccountRecord(row)
    // Sent by the sweep: accounts are connected from the CLI, a process that does not stay to deliver.
    await recordEvent(tx, null, {
      workspaceId: input.workspaceId,
      type: 'account.connected',
      data: { ...record },
      now: row.createdAt,
    })
    return record
  })
}

/**
 * The network no longer takes the account's token: EXPIRED with `reason`, and `account.expired`
 * (with the reason) in the same transaction when it was not expired already.
 */
export async function expireAccount(
  tx: Tx,
  outbox: Outbox | null,
  accountId: string,
  reason: string,
  now: Date,
): Promise<void> {
  const before = await findAccount(tx, accountId)
  await markAccountExpired(tx, accountId, reason, now)
  if (!before || before.status === 'EXPIRED') return
  const record = toAccountRecord({ ...before, status: 'EXPIRED', statusMessage: reason, updatedAt: now })
  await recordEvent(tx, outbox, {
    workspaceId: before.workspaceId,
    type: 'account.expired',
    data: { ...record, reason },
    now,
  })
}

/** A `SANDBOX` account: publishes to the built-in simulated network (docs/decisions.md, "Sandbox accounts"). */
export function addSandboxAccount(
  db: Db,
  cipher: CredentialCipher,
  input: { workspaceId: string; platform: PlatformId; username: string; failMode?: SandboxFailMode },
): Promise<AccountRecord> {
  return insertAccount(db, cipher, {
    workspaceId: input.workspaceId,
    platform: input.platform,
    username: input.username,
    connection: 'SANDBOX',
    credentials: { failMode: input.failMode ?? 'never' },
  })
}
