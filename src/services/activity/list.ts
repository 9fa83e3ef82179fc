/**
 * `GET /v1/activity`: the workspace's activity log, newest first, filtered and paged by cursor (the
 * id of the last entry of the previous page, as every list of the API), or as CSV.
 */
import {
  type ActivityFilter,
  type ActivityRow,
  activityEntryExists,
  countActivity,
  selectActivityPage,
} from '../../db/queries/activity'
import type { Db } from '../../db/types'
import type { ActorRef } from '../../domain/access'
import { AppError } from '../../domain/errors'
import { csvCell, textCell } from '../analytics/csv'

export interface ActivityEntry {
  id: string
  at: string
  actor: ActorRef
  action: string
  subject: { type: string; id: string | null }
  summary: string
  details: Record<string, unknown>
  ip: string | null
}

/** The filters of the list: `action` is exact, or a prefix when it ends with a dot (`post.`). */
export interface ActivityQuery {
  actorKind?: string | undefined
  actorId?: string | undefined
  action?: string | undefined
  subjectType?: string | undefined
  subjectId?: string | undefined
  from?: string | undefined
  to?: string | undefined
  cursor?: string | undefined
  limit: number
}

export const ACTIVITY_PAGE_DEFAULT = 50
export const ACTIVITY_PAGE_MAX = 200
/** The most entries one CSV holds (the newest); `X-Rows-Left-Off` counts the rest. */
export const ACTIVITY_CSV_MAX_ROWS = 10_000

export const ACTIVITY_CSV_COLUMNS = [
  'id',
  'at',
  'actor_kind',
  'actor_id',
  'actor_name',
  'action',
  'subject_type',
  'subject_id',
  'summary',
  'ip',
  'details',
] as const

export function toActivityEntry(r: ActivityRow): ActivityEntry {
  return {
    id: r.id,
    at: r.at.toISOString(),
    actor: r.actor,
    action: r.action,
    subject: { type: r.subjectType, id: r.subjectId },
    summary: r.summary,
    details: r.details ?? {},
    ip: r.ip,
  }
}

const badCursor = () =>
  new AppError('invalid_request', 'The cursor is not one this list gave; start again without it.', {
    details: [{ path: 'query.cursor', message: 'unknown cursor' }],
  })

function filterOf(workspaceId: string, q: Omit<ActivityQuery, 'limit'>): ActivityFilter {
  const from = q.from ? new Date(q.from) : undefined
  const to = q.to ? new Date(q.to) : undefined
  if (from && to && from.getTime() > to.getTime())
    throw new AppError('invalid_request', '`from` is after `to`; give a period that starts before it ends.', {
      details: [{ path: 'query.from' }],
    })
  const prefix = q.action?.endsWith('.') ? q.action : undefined
  return {
    workspaceId,
    actorKind: q.actorKind,
    actorId: q.actorId,
    action: prefix ? undefined : q.action,
    actionPrefix: prefix,
    subjectType: q.subjectType,
    subjectId: q.subjectId,
    from,
    to,
  }
}

export async function listActivity(
  db: Db,
  workspaceId: string,
  query: ActivityQuery,
): Promise<{ data: ActivityEntry[]; nextCursor: string | null }> {
  if (query.cursor !== undefined && !(await activityEntryExists(db, workspaceId, query.cursor))) throw badCursor()
  const rows = await selectActivityPage(db, filterOf(workspaceId, query), {
    afterId: query.cursor,
    limit: query.limit + 1,
  })
  const data = rows.slice(0, query.limit).map(toActivityEntry)
  return { data, nextCursor: rows.length > query.limit ? data[data.length - 1]!.id : null }
}

/**
 * The same entries as CSV (RFC 4180, CRLF, every text cell guarded against formulas as the analytics
 * CSV is), from the cursor on, at most `ACTIVITY_CSV_MAX_ROWS`; `details` as JSON text.
 */
export async function activityCsv(
  db: Db,
  workspaceId: string,
  query: Omit<ActivityQuery, 'limit'>,
): Promise<{ body: string; rows: number; leftOff: number; filename: string }> {
  const page = await listActivity(db, workspaceId, { ...query, limit: ACTIVITY_CSV_MAX_ROWS })
  const leftOff =
    page.nextCursor === null ? 0 : await countActivity(db, filterOf(workspaceId, query), { afterId: page.nextCursor })
  const lines = [ACTIVITY_CSV_COLUMNS.join(',')]
  for (const e of page.data) {
    lines.push(
      [
        csvCell(e.id),
        csvCell(e.at),
        csvCell(e.actor.kind),
        textCell(e.actor.id),
        textCell(e.actor.name),
        textCell(e.action),
        textCell(e.subject.type),
        textCell(e.subject.id),
        textCell(e.summary),
        textCell(e.ip),
        textCell(JSON.stringify(e.details)),
      ].join(','),
    )
  }
  return {
    body: `${lines.join('\r\n')}\r\n`,
    rows: page.data.length,
    leftOff,
    filename: `activity-${workspaceId}.csv`,
  }
}
