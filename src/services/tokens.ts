import {
  findTokenByHash,
  insertToken,
  revokeLiveToken,
  selectWorkspaceTokens,
  touchTokenLastUsed,
} from '../db/queries/tokens'
import { selectGrantCoverage } from '../db/queries/agent-grants'
import type { Db } from '../db/types'
import { constantTimeEqual, sha256Hex } from '../lib/crypto'
import { newId, randomBase62 } from '../lib/ids'
import type { MemberRole } from '../domain/people'

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

export async function createToken(db: Db, workspaceId: string, name: string): Promise<CreatedToken> {
  const token = TOKEN_PREFIX + randomBase62(43)
  const row = await insertToken(db, {
    id: newId('token'),
    workspaceId,
    name,
    tokenHash: await sha256Hex(token),
    hint: token.slice(0, 8),
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
 * Revokes a token; returns false when no live token has that id (in `workspaceId` when given: the
 * dashboard never revokes another workspace's token).
 */
export async function revokeToken(db: Db, tokenId: string, now: Date, workspaceId?: string): Promise<boolean> {
  const rows = await revokeLiveToken(db, tokenId, now, workspaceId)
  return rows.length > 0
}

export const isWellFormedToken = (token: string): boolean => TOKEN_PATTERN.test(token)

/**
 * A presented token's workspace (an agent's default one), whether it is an agent's grant, or why it
 * was refused: `invalid` (malformed, unknown, revoked or expired) or `agent_token`.
 */
export type TokenCheck =
  | { accepted: true; workspaceId: string; tokenId: string; agent: boolean }
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
  return { accepted: true, workspaceId: row.workspaceId, tokenId: row.id, agent: row.agentClientId !== null }
}
