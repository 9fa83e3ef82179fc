/**
 * `POST /v1/analytics/refresh`: asks for the workspace's accounts (or one of them) to be read
 * again now rather than on their schedule. It marks each stream the account's network supports
 * (`account_sync.requested_at`): `metrics` (followers and post figures; the analytics collection
 * pass reads every target of the account published in the last `REFRESH_MAX_AGE_DAYS` days and
 * clears the mark), and `posts` / `comments` where the network lists them (the inbox sync clears
 * those). Nothing is called here: the answer says what will be refreshed.
 */
import { markRefreshRequested, selectRefreshAccounts } from '../../db/queries/analytics-refresh'
import type { Deps } from '../../deps'
import { notFound } from '../../domain/errors'
import { rulesFor } from '../../domain/rules/index'
import { RATE_LIMIT_RULES } from '../../infra/ratelimit/types'
import type { PlatformId } from '../../domain/vocabulary'

/** How far back a refresh reads a refreshed account's published targets. */
export const REFRESH_MAX_AGE_DAYS = 90

/** The rate limit of a refresh (its own bucket, `analyticsRefresh`). */
export const REFRESH_PER_MINUTE = RATE_LIMIT_RULES.analyticsRefresh.limit

export const REFRESH_STREAMS = ['metrics', 'posts', 'comments'] as const
export type RefreshStream = (typeof REFRESH_STREAMS)[number]

export interface RefreshAnswer {
  requestedAt: string
  accounts: Array<{ accountId: string; platform: PlatformId; streams: RefreshStream[] }>
  skipped: Array<{ accountId: string; platform: PlatformId; reason: string }>
}

/** The streams a platform's network lets this service read (the rules registry). */
export function refreshStreamsOf(platform: PlatformId): RefreshStream[] {
  const rules = rulesFor(platform)
  const streams: RefreshStream[] = []
  if (rules.insights.followers || rules.insights.postMetrics.length > 0) streams.push('metrics')
  if (rules.insights.importsPosts) streams.push('posts')
  if (rules.inbox.comments) streams.push('comments')
  return streams
}

export async function requestAnalyticsRefresh(
  deps: Pick<Deps, 'db'>,
  input: { workspaceId: string; accountId?: string; now: Date },
): Promise<RefreshAnswer> {
  const rows = await selectRefreshAccounts(deps.db, input.workspaceId, input.accountId)
  if (input.accountId && rows.length === 0) throw notFound('Account')
  const answer: RefreshAnswer = { requestedAt: input.now.toISOString(), accounts: [], skipped: [] }
  const marks: Array<{ accountId: string; stream: RefreshStream }> = []
  for (const a of rows) {
    const streams = refreshStreamsOf(a.platform)
    if (a.status !== 'ACTIVE') {
      answer.skipped.push({
        accountId: a.id,
        platform: a.platform,
        reason: `The account is ${a.status}: reconnect it first; only connected accounts are read.`,
      })
    } else if (streams.length === 0) {
      answer.skipped.push({
        accountId: a.id,
        platform: a.platform,
        reason: 'Its network reports no figures, posts or comments to this service: there is nothing to read.',
      })
    } else {
      answer.accounts.push({ accountId: a.id, platform: a.platform, streams })
      for (const stream of streams) marks.push({ accountId: a.id, stream })
    }
  }
  await markRefreshRequested(deps.db, marks, input.now)
  return answer
}
