import { and, count, eq, gte, sql } from 'drizzle-orm'
import { plans, posts, workspaces } from '../../db/schema'
import type { Tx } from '../../db/types'
import { AppError } from '../../http/errors'

export interface LockedWorkspace {
  id: string
  timezone: string
  monthlyPosts: number
}

/**
 * Locks the workspace row for the rest of the transaction: post creation and queue allocation in
 * one workspace happen one at a time, so plan caps and slot occurrences cannot be overshot.
 */
export async function lockWorkspace(tx: Tx, workspaceId: string): Promise<LockedWorkspace> {
  const [row] = await tx
    .select({ id: workspaces.id, timezone: workspaces.timezone, monthlyPosts: plans.monthlyPosts })
    .from(workspaces)
    .innerJoin(plans, eq(plans.id, workspaces.planId))
    .where(eq(workspaces.id, workspaceId))
    .for('update', { of: workspaces })
  if (!row) throw new AppError('not_found', 'Workspace not found.')
  return row
}

/** 403 when one more post would pass the plan's `monthlyPosts` (counted as GET /v1/me counts it). */
export async function assertMonthlyPostQuota(tx: Tx, ws: LockedWorkspace, now: Date): Promise<void> {
  if (ws.monthlyPosts < 0) return
  const monthStart = sql`(date_trunc('month', (${now.toISOString()}::timestamptz AT TIME ZONE ${ws.timezone})) AT TIME ZONE ${ws.timezone})`
  const [row] = await tx.select({ n: count() }).from(posts).where(and(eq(posts.workspaceId, ws.id), gte(posts.createdAt, monthStart)))
  const used = row?.n ?? 0
  if (used >= ws.monthlyPosts) {
    throw new AppError('plan_limit_reached', `Your plan allows ${ws.monthlyPosts} posts a month and ${used} were created this month; upgrade the plan or wait for the next month.`, {
      details: [{ path: 'monthlyPosts', limit: ws.monthlyPosts, actual: used + 1 }],
    })
  }
}
