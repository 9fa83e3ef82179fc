/** What a workspace has done of its first steps, in one round trip (four EXISTS over indexed columns). */
import { and, eq, isNull, ne, sql } from 'drizzle-orm'
import { accounts, apiTokens, posts, webhookEndpoints, workspaces } from '../schema'
import type { Db } from '../types'

export interface FirstStepsRow {
  hasAccount: boolean
  hasPost: boolean
  hasScheduledPost: boolean
  hasLiveToken: boolean
  hasWebhook: boolean
}

const exists = (query: { getSQL(): ReturnType<typeof sql> }) => sql<boolean>`exists (${query})`

/** The workspace's first steps taken (a live token: not revoked). */
export async function selectFirstSteps(db: Db, workspaceId: string): Promise<FirstStepsRow> {
  const one = sql`1`
  const [row] = await db
    .select({
      hasAccount: exists(db.select({ one }).from(accounts).where(eq(accounts.workspaceId, workspaceId))),
      hasPost: exists(db.select({ one }).from(posts).where(eq(posts.workspaceId, workspaceId))),
      hasScheduledPost: exists(
        db
          .select({ one })
          .from(posts)
          .where(and(eq(posts.workspaceId, workspaceId), ne(posts.status, 'DRAFT'))),
      ),
      hasLiveToken: exists(
        db
          .select({ one })
          .from(apiTokens)
          .where(and(eq(apiTokens.workspaceId, workspaceId), isNull(apiTokens.revokedAt))),
      ),
      hasWebhook: exists(
        db.select({ one }).from(webhookEndpoints).where(eq(webhookEndpoints.workspaceId, workspaceId)),
      ),
    })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId))
  return row ?? { hasAccount: false, hasPost: false, hasScheduledPost: false, hasLiveToken: false, hasWebhook: false }
}
