/**
 * The calendar's posts (dashboard week, month and list views): one statement per view whatever the
 * number of posts, at most a few per day or hour slot with how many the slot holds ("+N more").
 * Filters name a status group (upcoming, published, failed, draft), an account and a network;
 * everything is read inside the workspace, so another workspace's account id matches nothing.
 */
import { TZDate } from '@date-fns/tz'
import { type CalendarPostFilter, type CalendarPostRow, selectCalendarPosts } from '../../db/queries/calendar'
import { listWorkspaceAccounts } from '../../db/queries/accounts'
import type { DbOrTx } from '../../db/types'
import type { ScopeFilter } from '../../db/queries/scope'
import type { PlatformId, PostStatus } from '../../domain/vocabulary'

export type { CalendarPostRow }

/** The status groups a calendar filters by, and the post statuses each holds. */
export const STATUS_GROUPS = {
  upcoming: ['SCHEDULED', 'PUBLISHING'],
  published: ['PUBLISHED'],
  failed: ['FAILED'],
  draft: ['DRAFT'],
  review: ['IN_REVIEW', 'CHANGES_REQUESTED', 'APPROVED'],
} as const satisfies Record<string, readonly PostStatus[]>
export type StatusGroup = keyof typeof STATUS_GROUPS
export const STATUS_GROUP_NAMES = Object.keys(STATUS_GROUPS) as StatusGroup[]

/** `groupId`, `labelId` and a limited member's groups (`visibleGroupIds`) narrow it as on `GET /v1/posts`. */
export interface CalendarFilter extends ScopeFilter {
  accountId?: string | undefined
  platform?: PlatformId | undefined
  status?: StatusGroup | undefined
}

const toQueryFilter = (f: CalendarFilter): CalendarPostFilter => ({
  groupId: f.groupId,
  labelId: f.labelId,
  visibleGroupIds: f.visibleGroupIds,
  accountId: f.accountId,
  platform: f.platform,
  statuses: f.status ? STATUS_GROUPS[f.status] : undefined,
})

/** Where each day (and with `hours`, each hour of each day) of the zone starts, ascending. */
export function slotStartsOf(days: readonly string[], timeZone: string, hours: boolean): Date[] {
  const out: Date[] = []
  for (const day of days) {
    const [y, m, d] = day.split('-').map(Number) as [number, number, number]
    for (let h = 0; h < (hours ? 24 : 1); h++) {
      // A wall-clock hour a DST change skips starts where the next one does: that slot stays empty.
      out.push(new Date(new TZDate(y, m - 1, d, h, 0, timeZone).getTime()))
    }
  }
  return out
}

/**
 * A grid's posts: the days (`YYYY-MM-DD`, consecutive) of a week or month in the zone, at most
 * `perSlot` per day (month) or per hour (week), earliest first, each with its slot's count.
 */
export function calendarGridPosts(
  db: DbOrTx,
  q: {
    workspaceId: string
    timeZone: string
    days: readonly string[]
    filter: CalendarFilter
    slot: 'day' | 'hour'
    perSlot: number
  },
): Promise<CalendarPostRow[]> {
  const starts = slotStartsOf([...q.days, nextDay(q.days.at(-1)!)], q.timeZone, false)
  return selectCalendarPosts(db, {
    workspaceId: q.workspaceId,
    timeZone: q.timeZone,
    from: starts[0]!,
    to: starts.at(-1)!,
    filter: toQueryFilter(q.filter),
    slotStarts: q.slot === 'hour' ? slotStartsOf(q.days, q.timeZone, true) : starts.slice(0, -1),
    perSlot: q.perSlot,
  })
}

const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)

export interface CalendarListPage {
  posts: CalendarPostRow[]
  page: number
  pageSize: number
  total: number
  hasMore: boolean
}

const FAR = 50 * 365 * 86_400_000

/**
 * A page of the list view. Upcoming posts run from now on, earliest first; published, failed and
 * drafts (and no status) latest first. `day` (`{from, to}`) narrows the list to one day, earliest first.
 */
export async function calendarListPage(
  db: DbOrTx,
  q: {
    workspaceId: string
    timeZone: string
    now: Date
    filter: CalendarFilter
    page: number
    pageSize: number
    day?: { from: Date; to: Date } | undefined
  },
): Promise<CalendarListPage> {
  const upcoming = q.filter.status === 'upcoming'
  const range = q.day ?? {
    from: upcoming ? q.now : new Date(0),
    to: new Date(q.now.getTime() + FAR),
  }
  const page = Math.max(1, q.page)
  const posts = await selectCalendarPosts(db, {
    workspaceId: q.workspaceId,
    timeZone: q.timeZone,
    ...range,
    filter: toQueryFilter(q.filter),
    slotStarts: null,
    perSlot: q.pageSize,
    skip: (page - 1) * q.pageSize,
    newestFirst: !upcoming && !q.day,
  })
  // The count rides on every row; an empty page past the end says nothing, so it is counted as none.
  const total = posts[0]?.slotTotal ?? 0
  return { posts, page, pageSize: q.pageSize, total, hasMore: page * q.pageSize < total }
}

/** The workspace's accounts a calendar filters by (id, network, name), oldest first; a limited member's only. */
export async function calendarAccounts(
  db: DbOrTx,
  workspaceId: string,
  scope: ScopeFilter = {},
): Promise<Array<{ id: string; platform: PlatformId; username: string }>> {
  const rows = await listWorkspaceAccounts(db, workspaceId, scope)
  return rows.map((a) => ({ id: a.id, platform: a.platform, username: a.username }))
}
