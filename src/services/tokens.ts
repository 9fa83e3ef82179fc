import {
  findTokenByHash,
  insertToken,
  revokeLiveToken,
  selectWorkspaceTokens,
  touchTokenLastUsed,
} from '../db/queries/tokens'
import { selectGrantCoverage, selectGrantHolder } from '../db/queries/agent-grants'
import { selectMemberAccess } from '../db/queries/member-groups'
import type { Db, DbOrTx } from '../db/types'
import { type Access, type ActorRef, accessOf } from '../domain/access'
import type { MemberRole } from '../domain/people'
import { recordTokenActivity } from './activity/admin'
import { callerOfScope, type WorkspaceScope } from './activity/scope'
import { systemCaller } from './caller'
import { constantTimeEqual, sha256Hex } from '../lib/crypto'
import { newId, randomBase62 } from '../lib/ids'

/** Personal access tokens: a fixed prefix and 43 random base62 characters (about 256 bits). */
export const TOKEN_PREFIX = 'sps_'
const TOKEN_PATTERN = /^sps_[0-9A-Za-z]{43}$/
/** last_used_at is written at most this often per token, so reads do not become writes. */
const LAST_USED_RESOLUTION_MS = 60_000

export interface CreatedToken {
  id: string
  name: string
  /** Shown once; only its SHA-256 is stored. */
  token: string
  createdAt: string
}

/** What a new personal token may do: its role ('owner' by default), its groups (null: all), who made it. */
export interface TokenOptions {
  role?: MemberRole
  groupIds?: string[] | null
  userId?: string | null
}

/** A new token (the secret answered once), with `token.created` in the activity log in the same transaction. */
export async function createToken(
  db: DbOrTx,
  scope: WorkspaceScope,
  name: string,
  options: TokenOptions = {},
): Promise<CreatedToken> {
  const caller = callerOfScope(scope)
  const token = TOKEN_PREFIX + randomBase62(43)
  const tokenHash = await sha256Hex(token)
  const access = accessOf(options.role ?? 'owner', options.groupIds ?? null)
  const row = await db.transaction(async (tx) => {
    const inserted = await insertToken(tx, {
      id: newId('token'),
      workspaceId: caller.workspaceId,
      name,
      tokenHash,
      hint: token.slice(0, 8),
      role: access.role,
      groupIds: access.groupIds === null ? null : [...access.groupIds],
      userId: options.userId ?? null,
    })
    await recordTokenActivity(tx, caller, { action: 'token.created', token: inserted, now: inserted.createdAt })
    return inserted
  })
  return { id: row.id, name: row.name, token, createdAt: row.createdAt.toISOString() }
}

export interface TokenView {
  id: string
  name: string
  createdAt: string
  /** Noted at most once a minute; null when never used. An agent's grant: its last call in this workspace. */
  lastUsedAt: string | null
  revokedAt: string | null
  /** An agent's grant only: the names of the workspaces it covers, its default first. */
  grantWorkspaces?: string[]
  /** What a personal token may do (an agent's grant acts with its user's current role). */
  role?: MemberRole
  /** The groups it is limited to; null: every account. */
  groupIds?: string[] | null
}

/**
 * A workspace's tokens, revoked ones too, with the agents' grants that cover it (a grant is listed,
 * and revocable, in each workspace it covers); never the token or its hash.
 */
export async function listTokens(db: Db, workspaceId: string): Promise<TokenView[]> {
  const rows = await selectWorkspaceTokens(db, workspaceId)
  const coverage = await selectGrantCoverage(
    db,
    rows.filter((r) => r.agent).map((r) => r.id),
    workspaceId,
  )
  return rows.map((r) => {
    const grant = r.agent ? coverage.get(r.id) : undefined
    // An agent's grant: its last call in this workspace (each workspace of the grant counts its own).
    const lastUsedAt = r.agent ? (grant?.lastUsedHere ?? null) : r.lastUsedAt
    return {
      role: r.role as MemberRole,
      groupIds: r.groupIds as string[] | null,
      id: r.id,
      name: r.name,
      createdAt: r.createdAt.toISOString(),
      lastUsedAt: lastUsedAt?.toISOString() ?? null,
      revokedAt: r.revokedAt?.toISOString() ?? null,
      ...(r.agent ? { grantWorkspaces: grant?.names ?? [] } : {}),
    }
  })
}

/**
 * Revokes a token; returns false when no live token has that id (in the scope's workspace when given:
 * the dashboard never revokes another workspace's token). `token.revoked` is in the activity log of
 * that workspace (the operator's CLI: the token's own workspace, by the service).
 */
export async function revokeToken(db: Db, tokenId: string, now: Date, scope?: WorkspaceScope): Promise<boolean> {
  const caller = scope === undefined ? undefined : callerOfScope(scope)
  return db.transaction(async (tx) => {
    const [row] = await revokeLiveToken(tx, tokenId, now, caller?.workspaceId)
    if (!row) return false
    await recordTokenActivity(tx, caller ?? systemCaller(row.workspaceId), { action: 'token.revoked', token: row, now })
    return true
  })
}

export const isWellFormedToken = (token: string): boolean => TOKEN_PATTERN.test(token)

/**
 * A presented token's workspace (an agent's default one), whether it is an agent's grant, or why it
 * was refused: `invalid` (malformed, unknown, revoked or expired) or `agent_token`.
 */
export type TokenCheck =
  | {
      accepted: true
      workspaceId: string
      tokenId: string
      agent: boolean
      /** What the token may do in `workspaceId`: a personal token's own role and groups, an agent's its user's. */
      access: Access
      actor: ActorRef
      /** The person behind the token: a personal token's creator, an agent grant's user. */
      userId: string | null
      tokenName: string
    }
  | { accepted: false; refusal: 'invalid' | 'agent_token' }

const INVALID: TokenCheck = { accepted: false, refusal: 'invalid' }

/**
 * The workspace a presented token belongs to, or why it is refused. A token issued to an agent through
 * OAuth is for the MCP endpoint only (its audience): other callers pass `agentTokens: false`, and a
 * live agent token is refused there as `agent_token`, so the answer can say where it works.
 */
export async function authenticateToken(
  db: Db,
  token: string,
  now: Date,
  options: { agentTokens: boolean } = { agentTokens: false },
): Promise<TokenCheck> {
  if (!isWellFormedToken(token)) return INVALID
  const hash = await sha256Hex(token)
  const row = await findTokenByHash(db, hash)
  // The index finds the row by hash; the comparison itself is constant-time.
  if (!row || row.revokedAt || !constantTimeEqual(row.tokenHash, hash)) return INVALID
  if (row.expiresAt && row.expiresAt.getTime() <= now.getTime()) return INVALID
  if (row.agentClientId && !options.agentTokens) return { accepted: false, refusal: 'agent_token' }
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    const stale = new Date(now.getTime() - LAST_USED_RESOLUTION_MS)
    await touchTokenLastUsed(db, row.id, now, stale)
  }
  const base = { accepted: true as const, workspaceId: row.workspaceId, tokenId: row.id, tokenName: row.name }
  if (row.agentClientId === null) {
    const actor: ActorRef = { kind: 'token', id: row.id, name: row.name }
    return { ...base, agent: false, access: accessOf(row.role, row.groupIds), actor, userId: row.userId }
  }
  const holder = await agentHolder(db, row.id, row.workspaceId)
  return holder ? { ...base, agent: true, ...holder } : INVALID
}

/**
 * An agent's grant acts as its user, with the role and groups of their membership now: in the grant's
 * default workspace here (each MCP call reads it again in the workspace it chose). A user who left that
 * workspace keeps the grant for their other ones: it then sees nothing by default.
 */
export async function agentHolder(
  db: DbOrTx,
  tokenId: string,
  workspaceId: string,
): Promise<{ access: Access; actor: ActorRef; userId: string } | null> {
  const grant = await selectGrantHolder(db, tokenId)
  if (!grant) return null
  const actor: ActorRef = { kind: 'agent', id: tokenId, name: `${grant.clientName} for ${grant.userName}` }
  const member = await selectMemberAccess(db, workspaceId, grant.userId)
  const access: Access = member ? accessOf(member.role, member.groupIds) : NO_ACCESS
  return { access, actor, userId: grant.userId }
}

/** An agent whose user left the workspace: the narrowest role, limited to no group. */
const NO_ACCESS: Access = { role: 'reviewer', groupIds: [] }
