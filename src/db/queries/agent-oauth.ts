/** Queries of the agents' authorization server: registered clients, authorization requests and OAuth-issued tokens. */
import { and, eq, gt, isNull, lt } from 'drizzle-orm'
import { agentAuthorizations, agentClients, apiTokens } from '../schema'
import type { DbOrTx } from '../types'

export type AgentClientRow = typeof agentClients.$inferSelect
export type AgentAuthorizationRow = typeof agentAuthorizations.$inferSelect

export async function insertAgentClient(db: DbOrTx, values: typeof agentClients.$inferInsert): Promise<AgentClientRow> {
  const [row] = await db.insert(agentClients).values(values).returning()
  return row!
}

export async function findAgentClient(db: DbOrTx, id: string): Promise<AgentClientRow | null> {
  const [row] = await db.select().from(agentClients).where(eq(agentClients.id, id)).limit(1)
  return row ?? null
}

export async function insertAgentAuthorization(db: DbOrTx, values: typeof agentAuthorizations.$inferInsert) {
  await db.insert(agentAuthorizations).values(values)
}

/** An undecided, unexpired request by its hash, with its client's name. */
export async function findOpenAgentAuthorization(db: DbOrTx, requestHash: string, now: Date) {
  const [row] = await db
    .select({ authorization: agentAuthorizations, clientName: agentClients.name })
    .from(agentAuthorizations)
    .innerJoin(agentClients, eq(agentClients.id, agentAuthorizations.clientId))
    .where(
      and(
        eq(agentAuthorizations.requestHash, requestHash),
        isNull(agentAuthorizations.decidedAt),
        gt(agentAuthorizations.expiresAt, now),
      ),
    )
    .limit(1)
  return row ?? null
}

/** Records the user's decision once: the workspace and the code's hash (approved), or neither (denied). */
export async function decideAgentAuthorization(
  db: DbOrTx,
  id: string,
  decision: { workspaceId: string | null; codeHash: string | null; expiresAt: Date },
  now: Date,
): Promise<boolean> {
  const rows = await db
    .update(agentAuthorizations)
    .set({ ...decision, decidedAt: now })
    .where(and(eq(agentAuthorizations.id, id), isNull(agentAuthorizations.decidedAt)))
    .returning({ id: agentAuthorizations.id })
  return rows.length > 0
}

/** Takes a code for its exchange: marks it used and returns it, only if it is unused and unexpired. */
export async function takeAgentCode(db: DbOrTx, codeHash: string, now: Date): Promise<AgentAuthorizationRow | null> {
  const [row] = await db
    .update(agentAuthorizations)
    .set({ usedAt: now })
    .where(
      and(
        eq(agentAuthorizations.codeHash, codeHash),
        isNull(agentAuthorizations.usedAt),
        gt(agentAuthorizations.expiresAt, now),
      ),
    )
    .returning()
  return row ?? null
}

/** A code already exchanged (presented again): the authorization, to revoke what it issued. */
export async function findUsedAgentCode(db: DbOrTx, codeHash: string): Promise<AgentAuthorizationRow | null> {
  const [row] = await db.select().from(agentAuthorizations).where(eq(agentAuthorizations.codeHash, codeHash)).limit(1)
  return row?.usedAt ? row : null
}

export async function noteAgentCodeToken(db: DbOrTx, authorizationId: string, tokenId: string): Promise<void> {
  await db.update(agentAuthorizations).set({ tokenId }).where(eq(agentAuthorizations.id, authorizationId))
}

/** Forgets authorization requests that expired before `before` (their codes can no longer be exchanged). */
export async function deleteExpiredAgentAuthorizations(db: DbOrTx, before: Date): Promise<void> {
  await db.delete(agentAuthorizations).where(lt(agentAuthorizations.expiresAt, before))
}

export async function insertAgentToken(db: DbOrTx, values: typeof apiTokens.$inferInsert): Promise<void> {
  await db.insert(apiTokens).values(values)
}

/**
 * Rotates a live OAuth grant by its refresh token: new access and refresh hashes and expiries, only
 * if the presented refresh token is still the current one (a replayed one matches nothing).
 */
export async function rotateAgentToken(
  db: DbOrTx,
  refreshTokenHash: string,
  clientId: string,
  next: { tokenHash: string; hint: string; expiresAt: Date; refreshTokenHash: string; refreshExpiresAt: Date },
  now: Date,
): Promise<{ id: string } | null> {
  const [row] = await db
    .update(apiTokens)
    .set(next)
    .where(
      and(
        eq(apiTokens.refreshTokenHash, refreshTokenHash),
        eq(apiTokens.agentClientId, clientId),
        isNull(apiTokens.revokedAt),
        gt(apiTokens.refreshExpiresAt, now),
      ),
    )
    .returning({ id: apiTokens.id })
  return row ?? null
}

/** The live OAuth-issued token whose access or refresh hash this is, for the client that holds it. */
export async function findAgentTokenByHash(db: DbOrTx, hash: string, clientId: string) {
  const [byAccess] = await db
    .select({ id: apiTokens.id })
    .from(apiTokens)
    .where(and(eq(apiTokens.tokenHash, hash), eq(apiTokens.agentClientId, clientId), isNull(apiTokens.revokedAt)))
    .limit(1)
  if (byAccess) return byAccess
  const [byRefresh] = await db
    .select({ id: apiTokens.id })
    .from(apiTokens)
    .where(
      and(eq(apiTokens.refreshTokenHash, hash), eq(apiTokens.agentClientId, clientId), isNull(apiTokens.revokedAt)),
    )
    .limit(1)
  return byRefresh ?? null
}
