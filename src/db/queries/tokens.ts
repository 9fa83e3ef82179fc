/** Queries of personal access tokens: stored by SHA-256 only, found by that hash. */
import { and, asc, eq, inArray, isNull, lt, or, type SQL, sql } from 'drizzle-orm'
import type { MemberRole } from '../../domain/people'
import { executePrepared } from '../prepared'
import { agentGrantWorkspaces, apiTokens } from '../schema'
import type { Db, DbOrTx } from '../types'

/** Tokens of the workspace: its own, and agents' grants that cover it besides their default workspace. */
const reachesWorkspace = (db: DbOrTx, workspaceId: string): SQL =>
  or(
    eq(apiTokens.workspaceId, workspaceId),
    inArray(
      apiTokens.id,
      db
        .select({ id: agentGrantWorkspaces.tokenId })
        .from(agentGrantWorkspaces)
        .where(eq(agentGrantWorkspaces.workspaceId, workspaceId)),
    ),
  )!

export type TokenRow = typeof apiTokens.$inferSelect

export async function insertToken(
  db: DbOrTx,
  values: {
    id: string
    workspaceId: string
    name: string
    tokenHash: string
    hint: string
    role?: MemberRole
    groupIds?: string[] | null
    userId?: string | null
  },
): Promise<TokenRow> {
  const [row] = await db.insert(apiTokens).values(values).returning()
  return row!
}

/** Revokes the token if it is still live; the rows it revoked (none or one). */
export function revokeLiveToken(
  db: DbOrTx,
  tokenId: string,
  now: Date,
  workspaceId?: string,
): Promise<Array<{ id: string; name: string; workspaceId: string }>> {
  return db
    .update(apiTokens)
    .set({ revokedAt: now })
    .where(
      and(
        eq(apiTokens.id, tokenId),
        isNull(apiTokens.revokedAt),
        workspaceId === undefined ? undefined : reachesWorkspace(db, workspaceId),
      ),
    )
    .returning({ id: apiTokens.id, name: apiTokens.name, workspaceId: apiTokens.workspaceId })
}

/** The token with this hash, revoked or not; null when there is none (every authenticated request). */
export async function findTokenByHash(db: Db, tokenHash: string) {
  const [row] = await executePrepared(db, 'token_by_hash', selectTokenByHash, { tokenHash })
  return row ?? null
}

const selectTokenByHash = (db: Db) =>
  db
    .select({
      id: apiTokens.id,
      workspaceId: apiTokens.workspaceId,
      tokenHash: apiTokens.tokenHash,
      revokedAt: apiTokens.revokedAt,
      lastUsedAt: apiTokens.lastUsedAt,
      expiresAt: apiTokens.expiresAt,
      agentClientId: apiTokens.agentClientId,
      name: apiTokens.name,
      role: apiTokens.role,
      groupIds: apiTokens.groupIds,
      userId: apiTokens.userId,
    })
    .from(apiTokens)
    .where(eq(apiTokens.tokenHash, sql.placeholder('tokenHash')))
    .limit(1)

/**
 * Notes the token's use, unless another request noted one after `stale` meanwhile (the condition
 * is re-checked in the statement, so concurrent requests write it once).
 */
export async function touchTokenLastUsed(db: DbOrTx, tokenId: string, now: Date, stale: Date): Promise<void> {
  await db
    .update(apiTokens)
    .set({ lastUsedAt: now })
    .where(and(eq(apiTokens.id, tokenId), or(isNull(apiTokens.lastUsedAt), lt(apiTokens.lastUsedAt, stale))))
}

/** A workspace's tokens (agents' grants that cover it too), oldest first: what identifies each and its dates, never the hash. */
export function selectWorkspaceTokens(db: DbOrTx, workspaceId: string) {
  return db
    .select({
      id: apiTokens.id,
      name: apiTokens.name,
      createdAt: apiTokens.createdAt,
      lastUsedAt: apiTokens.lastUsedAt,
      revokedAt: apiTokens.revokedAt,
      role: apiTokens.role,
      groupIds: apiTokens.groupIds,
      agent: sql<boolean>`${apiTokens.agentClientId} is not null`,
    })
    .from(apiTokens)
    .where(reachesWorkspace(db, workspaceId))
    .orderBy(asc(apiTokens.createdAt), asc(apiTokens.id))
}
