import { countPostsThisMonth, type LockedWorkspaceRow, lockWorkspaceRow } from '../../db/queries/workspaces'
import type { Tx } from '../../db/types'
import { AppError } from '../../domain/errors'

/** The locked workspace with its plan's caps (a negative cap is unlimited). */
export type LockedWorkspace = LockedWorkspaceRow

/**
 * Locks the workspace row for the rest of the transaction: post and account creation, queue
 * allocation and schedule replacement in one workspace happen one at a time, so plan caps and
 * slot occurrences cannot be overshot.
 */
export async function lockWorkspace(tx: Tx, workspaceId: string): Promise<LockedWorkspace> {
  const row = await lockWorkspaceRow(tx, workspaceId)
  if (!row) throw new AppError('not_found', 'Workspace not found.')
  return row
}

/** 403 when one more post would pass the plan's `monthlyPosts` (counted as GET /v1/me counts it). */
export async function assertMonthlyPostQuota(tx: Tx, ws: LockedWorkspace, now: Date): Promise<void> {
  if (ws.monthlyPosts < 0) return
  const used = await countPostsThisMonth(tx, ws.id, ws.timezone, now)
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
