/** Queries of agents' grants: the workspaces a grant covers, its user, and their live memberships there. */
import { and, asc, eq, inArray } from 'drizzle-orm'
import { agentAuthorizationWorkspaces, agentGrants, agentGrantWorkspaces, memberships, workspaces } from '../schema'
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

/** The workspace names each of these tokens' grants covers, in order (tokens without a grant are absent). */
export async function selectGrantCoverage(db: DbOrTx, tokenIds: string[]): Promise<Map<string, string[]>> {
  const coverage = new Map<string, string[]>()
  if (tokenIds.length === 0) return coverage
  const rows = await db
    .select({ tokenId: agentGrantWorkspaces.tokenId, name: workspaces.name })
    .from(agentGrantWorkspaces)
    .innerJoin(workspaces, eq(workspaces.id, agentGrantWorkspaces.workspaceId))
    .where(inArray(agentGrantWorkspaces.tokenId, tokenIds))
    .orderBy(asc(agentGrantWorkspaces.tokenId), asc(agentGrantWorkspaces.position))
  for (const r of rows) coverage.set(r.tokenId, [...(coverage.get(r.tokenId) ?? []), r.name])
  return coverage
}
