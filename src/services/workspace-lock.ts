import { and, count, eq, gte, sql, type SQL, type SQLWrapper } from 'drizzle-orm'
import { plans, posts, workspaces } from '../db/schema'
import type { Tx } from '../db/types'
import { AppError } from '../domain/errors'

export interface LockedWorkspace {
  id: string
  timezone: string
  monthlyPosts: number
  socialAccounts: number
}

/**
 * Locks the workspace row for the rest of the transaction: post and account creation, queue
 * allocation and schedule replacement in one workspace happen one at a time, so plan caps and
 * slot occurrences cannot be overshot.
 */
export async function lockWorkspace(tx: Tx, workspaceId: string): Promise<LockedWorkspace> {
  const [row] = await tx
    .select({
      id: workspaces.id,
      timezone: workspaces.timezone,
      monthlyPosts: plans.monthlyPosts,
      socialAccounts: plans.socialAccounts,
    })
    .from(workspaces)
    .innerJoin(plans, eq(plans.id, workspaces.planId))
    .where(eq(workspaces.id, workspaceId))
    .for('update', { of: workspaces })
  if (!row) throw new AppError('not_found', 'Workspace not found.')
  return row
}

/**
 * The first of `now`'s month at 00:00 in `timezone` (a zone name or the workspace's column), as
 * SQL: the start of the period `monthlyPosts` counts, for enforcement and for GET /v1/me alike.
 */
export function monthStartIn(timezone: string | SQLWrapper, now: Date): SQL {
  return sql`(date_trunc('month', (${now.toISOString()}::timestamptz AT TIME ZONE ${timezone})) AT TIME ZONE ${timezone})`
}

/** 403 when one more post would pass the plan's `monthlyPosts` (counted as GET /v1/me counts it). */
export async function assertMonthlyPostQuota(tx: Tx, ws: LockedWorkspace, now: Date): Promise<void> {
  if (ws.monthlyPosts < 0) return
  const monthStart = monthStartIn(ws.timezone, now)
  const [row] = await tx
    .select({ n: count() })
    .from(posts)
    .where(and(eq(posts.workspaceId, ws.id), gte(posts.createdAt, monthStart)))
  const used = row?.n ?? 0
  if (used >= ws.monthlyPosts) {
    throw new AppError(
      'plan_limit_reached',
      `Your plan allows ${ws.monthlyPosts} posts a month and ${used} were created this month; upgrade the plan or wait for the next month.`,
      {
        details: [{ path: 'monthlyPosts', limit: ws.monthlyPosts, actual: used + 1 }],
      },
    )
  }
}
