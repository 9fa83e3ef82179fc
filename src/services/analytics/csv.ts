/**
 * `GET /v1/analytics` with `Accept: text/csv`: one row per post target published in the period,
 * newest first, with its latest figures. RFC 4180: every cell that holds a comma, a quote or a line
 * break is quoted (quotes doubled); lines end with CRLF. A text cell (caption, username, permalink)
 * that a spreadsheet would read as a formula (it starts with =, +, -, @, a tab or a carriage return)
 * is prefixed with an apostrophe, so opening the file never runs what a stranger wrote.
 */
import { selectPeriodTargets } from '../../db/queries/analytics-period'
import { findWorkspaceTimezone } from '../../db/queries/workspaces'
import type { Db } from '../../db/types'
import { FIGURE_KEYS } from './engagement'
import { type AnalyticsQuery, getAnalytics, postAnalytics } from './read'
import { periodOf } from './period'

/** The most rows one CSV holds (the newest); `X-Rows-Left-Off` says how many more the period has. */
export const CSV_MAX_ROWS = 10_000

export const CSV_COLUMNS = [
  'target_id',
  'post_id',
  'account_id',
  'platform',
  'username',
  'source',
  'published_at',
  'permalink',
  'caption',
  ...FIGURE_KEYS,
  'engagement',
  'engagement_rate',
  'collected_at',
  'labels',
] as const

const FORMULA_START = /^[=+\-@\t\r]/

/** A text cell: guarded against formulas, then quoted where needed. */
export function textCell(value: string | null): string {
  if (value === null) return ''
  return csvCell(FORMULA_START.test(value) ? `'${value}` : value)
}

/** A cell as RFC 4180 writes it: quoted when it holds a comma, a quote or a line break. */
export function csvCell(value: string | number | null): string {
  if (value === null) return ''
  const s = String(value)
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s
}

export interface AnalyticsCsv {
  body: string
  rows: number
  leftOff: number
  filename: string
}

export async function analyticsCsv(
  db: Db,
  workspaceId: string,
  now: Date,
  query: AnalyticsQuery,
): Promise<AnalyticsCsv> {
  // The same checks as the JSON answer (period, account), and its totals give the row count.
  const summary = await getAnalytics(db, workspaceId, now, { ...query, maxPosts: 0 })
  const timezone = (await findWorkspaceTimezone(db, workspaceId)) ?? 'UTC'
  const period = periodOf({ from: summary.period.from, to: summary.period.to }, now, timezone)
  const filter = {
    workspaceId,
    from: period.from,
    until: period.until,
    accountId: query.accountId,
    platform: query.platform,
    groupId: query.groupId,
    labelId: query.labelId,
    visibleGroupIds: query.visibleGroupIds,
  }
  const rows = await selectPeriodTargets(db, filter, CSV_MAX_ROWS)
  const lines = [CSV_COLUMNS.join(',')]
  for (const row of rows) {
    const p = postAnalytics(row)
    lines.push(
      [
        csvCell(p.targetId),
        csvCell(p.postId),
        csvCell(p.accountId),
        csvCell(p.platform),
        textCell(row.username),
        csvCell(row.source),
        csvCell(p.publishedAt),
        textCell(p.permalink),
        textCell(row.caption),
        ...FIGURE_KEYS.map((k) => csvCell(p.metrics[k])),
        csvCell(p.engagement),
        csvCell(p.engagementRate),
        csvCell(p.collectedAt),
        textCell(row.labels),
      ].join(','),
    )
  }
  const scope = (query.accountId ?? query.groupId ?? query.labelId ?? query.platform?.toLowerCase() ?? 'workspace').replace(/[^A-Za-z0-9_-]/g, '_')
  return {
    body: `${lines.join('\r\n')}\r\n`,
    rows: rows.length,
    leftOff: Math.max(0, summary.totals.posts - rows.length),
    filename: `analytics-${scope}-${summary.period.from}-${summary.period.to}.csv`,
  }
}
