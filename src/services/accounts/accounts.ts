import {
  type AccountRow,
  countConnectedAccounts,
  findAccount,
  findWorkspaceAccount,
  insertAccountRow,
  lastPublishedAt,
  listWorkspaceAccounts,
  markAccountExpired,
} from '../../db/queries/accounts'
import { selectSyncRows } from '../../db/queries/sync'
import { addAccountToGroup, selectGroupIdsOfAccounts } from '../../db/queries/groups'
import type { ScopeFilter } from '../../db/queries/scope'
import type { Db, Tx } from '../../db/types'
import { AppError } from '../../domain/errors'
import type { CredentialCipher } from '../../infra/credential-cipher'
import { newId } from '../../lib/ids'
import { lockWorkspace } from '../workspace/lock'
import { type AccountSyncHealth, syncHealthOf } from './sync-health'
import { recordEvent, type Outbox } from '../webhooks/outbox'
import { recordAccountActivity } from '../activity/accounts'
import { callerOfScope } from '../activity/scope'
import { type Caller, systemCaller } from '../caller'
import type { AccountStatus, Connection, PlatformId, SandboxFailMode } from '../../domain/vocabulary'
import { notifyAccountNeedsReconnect } from '../notifications/triggers'

export interface AccountRecord {
  id: string
  platform: PlatformId
  username: string
  status: AccountStatus
  connection: Connection
  /** Why the account is not ACTIVE, and what to do about it; null when ACTIVE. */
  statusReason: string | null
  /** The same as `statusReason` (its earlier name). */
  statusMessage: string | null
  /** When the stored token stops working; null when unknown or never. */
  tokenExpiresAt: string | null
  /** The caption budget the network reported for this account; null: the platform's. */
  captionMaxLength: number | null
  connectedAt: string
  lastPublishedAt: string | null
  createdAt: string
  /** Its inbox sync in words; null when nothing is read from it (or it was not read yet). */
  sync: AccountSyncHealth | null
  /** The account groups it is in (`GET /v1/groups`). */
  groupIds: string[]
}

export function toAccountRecord(
  row: AccountRow,
  extra: { lastPublished?: Date | null; sync?: AccountSyncHealth | null; groupIds?: string[] } = {},
): AccountRecord {
  const { lastPublished = null, sync = null, groupIds = [] } = extra
  return {
    id: row.id,
    platform: row.platform,
    username: row.username,
    status: row.status,
    connection: row.connection,
    statusReason: row.statusMessage,
    statusMessage: row.statusMessage,
    tokenExpiresAt: row.tokenExpiresAt?.toISOString() ?? null,
    captionMaxLength: row.captionMaxLength,
    connectedAt: row.connectedAt.toISOString(),
    lastPublishedAt: lastPublished?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    sync,
    groupIds,
  }
}

/** Each account's sync health, by account id. */
async function syncHealthByAccount(db: Db, accountIds: string[]): Promise<Map<string, AccountSyncHealth | null>> {
  const rows = await selectSyncRows(db, accountIds)
  return new Map(accountIds.map((id) => [id, syncHealthOf(rows.filter((r) => r.accountId === id))]))
}

/** The expiry credentials declare (`expiresAt`, an ISO time), as a date; null when they give none. */
export function tokenExpiryOf(credentials: Record<string, unknown>): Date | null {
  const at = credentials.expiresAt
  if (typeof at !== 'string') return null
  const date = new Date(at)
  return Number.isNaN(date.getTime()) ? null : date
}

/** The workspace's accounts, oldest first; `scope` narrows them to a group, and to a limited caller's groups. */
export async function listAccounts(db: Db, workspaceId: string, scope: ScopeFilter = {}): Promise<AccountRecord[]> {
  const rows = await listWorkspaceAccounts(db, workspaceId, scope)
  return recordsOf(db, rows)
}

async function recordsOf(db: Db, rows: AccountRow[]): Promise<AccountRecord[]> {
  const ids = rows.map((r) => r.id)
  const published = await lastPublishedAt(db, ids)
  const sync = await syncHealthByAccount(db, ids)
  const groups = await selectGroupIdsOfAccounts(db, ids)
  return rows.map((r) =>
    toAccountRecord(r, {
      lastPublished: published.get(r.id) ?? null,
      sync: sync.get(r.id) ?? null,
      groupIds: groups.get(r.id) ?? [],
    }),
  )
}

/** One account of the workspace with its health, or 404. */
export async function getAccount(db: Db, workspaceId: string, accountId: string): Promise<AccountRecord> {
  const row = await getAccountRow(db, workspaceId, accountId)
  return (await recordsOf(db, [row]))[0]!
}

/** The workspace an account belongs to, for the operator's CLI, which names an account by its id alone; null when there is none. */
export async function accountWorkspaceId(db: Db, accountId: string): Promise<string | null> {
  return (await findAccount(db, accountId))?.workspaceId ?? null
}

/** One account of the workspace, or 404 (an id of another workspace does not exist for the caller). */
export async function getAccountRow(db: Db, workspaceId: string, accountId: string): Promise<AccountRow> {
  const row = await findWorkspaceAccount(db, workspaceId, accountId)
  if (!row) throw new AppError('not_found', 'Account not found.')
  return row
}

export interface NewAccount {
  workspaceId: string
  platform: PlatformId
  username: string
  connection: Connection
  credentials: Record<string, unknown>
  externalId?: string | null
  /** The caption budget the network reported for the account; null or absent: the platform's. */
  captionMaxLength?: number | null
  /** Who connects it, for the activity log; absent: the service (a hosted link's holder, the CLI, the demo). */
  caller?: Caller
  /** The account group it joins (a hosted link's); absent or null: none. */
  groupId?: string | null
}

/**
 * Stores a connected account with its credentials encrypted. The plan's `socialAccounts` cap is
 * checked under a lock on the workspace row, so concurrent additions cannot overshoot it.
 */
export async function insertAccount(db: Db, cipher: CredentialCipher, input: NewAccount): Promise<AccountRecord> {
  const id = newId('account')
  const sealed = await cipher.encrypt(input.credentials, id)
  return db.transaction(async (tx) => toAccountRecord(await insertSealedAccount(tx, id, sealed, input)))
}

/**
 * Inserts an account whose credentials are already sealed (bound to `id`), within the caller's
 * transaction, after checking the plan's cap under the workspace lock, into its group if it has one;
 * `account.connected` is recorded in the same transaction and sent by the webhook sweep (the CLI
 * does not stay to deliver).
 */
export async function insertSealedAccount(tx: Tx, id: string, sealed: string, input: NewAccount): Promise<AccountRow> {
  await assertRoomForAccount(tx, input.workspaceId)
  const row = await insertAccountRow(tx, {
    id,
    workspaceId: input.workspaceId,
    platform: input.platform,
    connection: input.connection,
    username: input.username,
    externalId: input.externalId ?? null,
    credentials: sealed,
    tokenExpiresAt: tokenExpiryOf(input.credentials),
    captionMaxLength: input.captionMaxLength ?? null,
  })
  const groupIds = input.groupId ? await addAccountToGroup(tx, input.workspaceId, input.groupId, id) : []
  await recordEvent(tx, null, {
    workspaceId: input.workspaceId,
    type: 'account.connected',
    data: { ...toAccountRecord(row, { groupIds }) },
    now: row.createdAt,
  })
  await recordAccountActivity(tx, callerOfScope(input.caller ?? input.workspaceId), {
    action: 'account.connected',
    account: row,
    words: 'connected',
    now: row.createdAt,
  })
  return row
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
  await notifyAccountNeedsReconnect(tx, { workspaceId: before.workspaceId, accountId, reason, now })
  await recordAccountActivity(tx, systemCaller(before.workspaceId), {
    action: 'account.expired',
    account: before,
    words: 'marked as expired',
    details: { reason },
    now,
  })
}

/** One more connected account fits the plan's `socialAccounts` cap (checked under the workspace lock). */
export async function assertRoomForAccount(tx: Tx, workspaceId: string): Promise<void> {
  const ws = await lockWorkspace(tx, workspaceId)
  if (ws.socialAccounts < 0) return
  const used = await countConnectedAccounts(tx, workspaceId)
  if (used >= ws.socialAccounts) {
    throw new AppError(
      'plan_limit_reached',
      `Your plan allows ${ws.socialAccounts} connected accounts; disconnect one or upgrade the plan.`,
      { details: [{ path: 'socialAccounts', limit: ws.socialAccounts, actual: used + 1 }] },
    )
  }
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
