/** Queries of agents' grants: the workspaces a grant covers, its user, and their live memberships there. */
import { and, asc, eq, inArray, isNull, lt, or } from 'drizzle-orm'
import {
  agentAuthorizationWorkspaces,
  agentClients,
  agentGrants,
  agentGrantWorkspaces,
  apiTokens,
  memberships,
  users,
  workspaces,
} from '../schema'
import type { DbOrTx } from '../types'

/** Records the workspaces chosen at consent, in the order given (the first is the default). */
export async function insertAuthorizationWorkspaces(
  db: DbOrTx,
  authorizationId: string,
  workspaceIds: string[],
): Promise<void> {
  await db
    .insert(agentAuthorizationWorkspaces)
    .values(workspaceIds.map((workspaceId, position) => ({ authorizationId, workspaceId, position })))
}

/** The workspaces of an authorization request, default first. */
export async function selectAuthorizationWorkspaces(db: DbOrTx, authorizationId: string): Promise<string[]> {
  const rows = await db
    .select({ workspaceId: agentAuthorizationWorkspaces.workspaceId })
    .from(agentAuthorizationWorkspaces)
    .where(eq(agentAuthorizationWorkspaces.authorizationId, authorizationId))
    .orderBy(asc(agentAuthorizationWorkspaces.position))
  return rows.map((r) => r.workspaceId)
}

/** The grant of a newly issued token: its user and its workspaces, in order. */
export async function insertAgentGrant(
  db: DbOrTx,
  grant: { tokenId: string; userId: string; workspaceIds: string[] },
): Promise<void> {
  await db.insert(agentGrants).values({ tokenId: grant.tokenId, userId: grant.userId })
  await db
    .insert(agentGrantWorkspaces)
    .values(grant.workspaceIds.map((workspaceId, position) => ({ tokenId: grant.tokenId, workspaceId, position })))
}

/**
 * Every workspace of a token's grant, default first, with its name and the role the grant's user
 * holds there now (`null` once they are no longer a member): read at each call, never cached.
 */
export function selectGrantWorkspaces(db: DbOrTx, tokenId: string) {
  return db
    .select({
      workspaceId: agentGrantWorkspaces.workspaceId,
      name: workspaces.name,
      role: memberships.role,
      lastUsedAt: agentGrantWorkspaces.lastUsedAt,
    })
    .from(agentGrantWorkspaces)
    .innerJoin(agentGrants, eq(agentGrants.tokenId, agentGrantWorkspaces.tokenId))
    .innerJoin(workspaces, eq(workspaces.id, agentGrantWorkspaces.workspaceId))
    .leftJoin(
      memberships,
      and(eq(memberships.workspaceId, agentGrantWorkspaces.workspaceId), eq(memberships.userId, agentGrants.userId)),
    )
    .where(eq(agentGrantWorkspaces.tokenId, tokenId))
    .orderBy(asc(agentGrantWorkspaces.position))
}

/**
 * Notes a call of the grant in the workspace, unless one was noted after `stale` meanwhile (checked in
 * the statement, so concurrent calls write it once).
 */
export async function touchGrantWorkspace(
  db: DbOrTx,
  use: { tokenId: string; workspaceId: string; now: Date; stale: Date },
): Promise<void> {
  await db
    .update(agentGrantWorkspaces)
    .set({ lastUsedAt: use.now })
    .where(
      and(
        eq(agentGrantWorkspaces.tokenId, use.tokenId),
        eq(agentGrantWorkspaces.workspaceId, use.workspaceId),
        or(isNull(agentGrantWorkspaces.lastUsedAt), lt(agentGrantWorkspaces.lastUsedAt, use.stale)),
      ),
    )
}

export interface GrantCoverage {
  /** The names of the grant's workspaces, its default first. */
  names: string[]
  /** The grant's last call in the workspace the list is for. */
  lastUsedHere: Date | null
}

/** What each of these tokens' grants covers, seen from one workspace (tokens without a grant are absent). */
export async function selectGrantCoverage(
  db: DbOrTx,
  tokenIds: string[],
  workspaceId: string,
): Promise<Map<string, GrantCoverage>> {
  const coverage = new Map<string, GrantCoverage>()
  if (tokenIds.length === 0) return coverage
  const rows = await db
    .select({
      tokenId: agentGrantWorkspaces.tokenId,
      workspaceId: agentGrantWorkspaces.workspaceId,
      name: workspaces.name,
      lastUsedAt: agentGrantWorkspaces.lastUsedAt,
    })
    .from(agentGrantWorkspaces)
    .innerJoin(workspaces, eq(workspaces.id, agentGrantWorkspaces.workspaceId))
    .where(inArray(agentGrantWorkspaces.tokenId, tokenIds))
    .orderBy(asc(agentGrantWorkspaces.tokenId), asc(agentGrantWorkspaces.position))
  for (const r of rows) {
    const grant = coverage.get(r.tokenId) ?? { names: [], lastUsedHere: null }
    grant.names.push(r.name)
    if (r.workspaceId === workspaceId) grant.lastUsedHere = r.lastUsedAt
    coverage.set(r.tokenId, grant)
  }
  return coverage
}

/** Who an agent's token acts for: the grant's user (id and name) and the client's name; null without a grant. */
export async function selectGrantHolder(
  db: DbOrTx,
  tokenId: string,
): Promise<{ userId: string; userName: string; clientName: string } | null> {
  const [row] = await db
    .select({ userId: agentGrants.userId, userName: users.name, clientName: agentClients.name })
    .from(agentGrants)
    .innerJoin(users, eq(users.id, agentGrants.userId))
    .innerJoin(apiTokens, eq(apiTokens.id, agentGrants.tokenId))
    .innerJoin(agentClients, eq(agentClients.id, apiTokens.agentClientId))
    .where(eq(agentGrants.tokenId, tokenId))
    .limit(1)
  return row ?? null
}
