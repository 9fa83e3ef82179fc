/**
 * The refreshes a collection pass serves (`POST /v1/analytics/refresh` marked them): per account
 * with a metrics refresh waiting, its published targets of the last `REFRESH_MAX_AGE_DAYS` days not
 * collected since the ask, read now whatever their schedule. The mark is cleared once the account
 * was read (or its network failed: the refresh is over, `last_error` says why) and nothing is left;
 * a refresh with more targets than a pass reads goes on in the next pass.
 */
import { clearMetricsRefresh, selectMetricsRefreshes, selectTargetsToRefresh } from '../../db/queries/analytics-refresh'
import type { DbOrTx } from '../../db/types'
import { NetworkFailure } from '../../networks/http'
import { REFRESH_MAX_AGE_DAYS } from './refresh'

export interface RefreshWork {
  accountId: string
  requestedAt: Date
  targets: Array<{ id: string; accountId: string; platformPostId: string; publishedAt: Date }>
  /** Every target left to read fits in this pass. */
  complete: boolean
}

export async function refreshWork(
  db: DbOrTx,
  options: { workspaceId?: string; now: Date; limits: { accounts: number; targets: number } },
): Promise<RefreshWork[]> {
  const marks = await selectMetricsRefreshes(db, { workspaceId: options.workspaceId, limit: options.limits.accounts })
  const since = new Date(options.now.getTime() - REFRESH_MAX_AGE_DAYS * 86_400_000)
  let budget = options.limits.targets
  const work: RefreshWork[] = []
  for (const mark of marks) {
    const requestedAt = mark.requestedAt!
    const rows = await selectTargetsToRefresh(db, {
      accountId: mark.accountId,
      requestedAt,
      since,
      now: options.now,
      limit: Math.max(budget, 0) + 1,
    })
    const targets = rows.slice(0, Math.max(budget, 0)).map((r) => ({
      id: r.id,
      accountId: r.accountId,
      platformPostId: r.platformPostId!,
      publishedAt: r.publishedAt!,
    }))
    budget -= targets.length
    work.push({ accountId: mark.accountId, requestedAt, targets, complete: rows.length === targets.length })
  }
  return work
}

/** What a failed refresh leaves in `last_error`: the failure's kind, never the network's own text. */
export function refreshFailure(err: unknown): { code: string; message: string } {
  if (err instanceof NetworkFailure)
    return { code: err.kind, message: `The network could not be read (${err.kind}); the refresh is over.` }
  return { code: 'internal_error', message: 'The account could not be read; the refresh is over.' }
}

/** Ends the account's refresh when this pass read everything it had left (or the network failed). */
export async function finishRefresh(
  db: DbOrTx,
  work: RefreshWork | undefined,
  outcome: { at: Date; error: { code: string; message: string } | null },
): Promise<void> {
  if (!work || (!work.complete && outcome.error === null)) return
  await clearMetricsRefresh(db, [{ accountId: work.accountId, requestedAt: work.requestedAt }], outcome)
}
