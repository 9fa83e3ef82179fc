import {
  type AccountRow,
  countConnectedAccounts,
  findWorkspaceAccount,
  insertAccountRow,
  listWorkspaceAccounts,
} from '../db/queries/accounts'
import type { Db } from '../db/types'
import { AppError } from '../domain/errors'
import type { CredentialCipher } from '../infra/credential-cipher'
import { newId } from '../lib/ids'
import { lockWorkspace } from './workspace-lock'
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
    return toAccountRecord(row)
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
