/**
 * What a calendar address asks for (`?view=week|month|list&day=YYYY-MM-DD&account=…&network=…&status=…
 * &group=…&label=…&page=N&on=YYYY-MM-DD`), read leniently: an unknown value is ignored, never an error, and the
 * links of the page keep the filters it was asked with.
 */
import { PLATFORM_IDS, type PlatformId } from '../../domain/vocabulary'
import { type CalendarFilter, STATUS_GROUP_NAMES, type StatusGroup } from '../../services/posts/calendar'
import { type DashboardMember, workspacePage } from '../env'
import { fromLocalInput } from './zoned-time'

export type CalendarView = 'week' | 'month' | 'list'

export interface CalendarParams {
  view: CalendarView
  /** The day the week or month is shown around (today when not asked). */
  day: string
  filter: CalendarFilter
  /** The list's page (from 1). */
  page: number
  /** The list narrowed to one day ("+N more" of a month day or a week slot). */
  on: string | null
}

const DAY = /^\d{4}-\d{2}-\d{2}$/

/** A `YYYY-MM-DD` that is a real day of the zone, else null. */
export const validDay = (value: string | undefined, timeZone: string): string | null =>
  value && DAY.test(value) && fromLocalInput(`${value}T00:00`, timeZone) ? value : null

/**
 * The calendar's parameters. `accountIds`, `groupIds` and `labelIds` are the workspace's: an id that
 * is not one of them (another workspace's) is dropped, so the filter cannot reach outside the workspace.
 */
export function readCalendarParams(
  query: (name: string) => string | undefined,
  ctx: {
    timeZone: string
    today: string
    accountIds: ReadonlySet<string>
    groupIds?: ReadonlySet<string>
    labelIds?: ReadonlySet<string>
  },
): CalendarParams {
  const group = query('group')
  const label = query('label')
  const view = query('view')
  const account = query('account')
  const network = query('network')
  const status = query('status')
  const page = Number.parseInt(query('page') ?? '1', 10)
  return {
    view: view === 'month' || view === 'list' ? view : 'week',
    day: validDay(query('day'), ctx.timeZone) ?? ctx.today,
    filter: {
      accountId: account && ctx.accountIds.has(account) ? account : undefined,
      platform: PLATFORM_IDS.includes(network as PlatformId) ? (network as PlatformId) : undefined,
      status: STATUS_GROUP_NAMES.includes(status as StatusGroup) ? (status as StatusGroup) : undefined,
      groupId: group && ctx.groupIds?.has(group) ? group : undefined,
      labelId: label && ctx.labelIds?.has(label) ? label : undefined,
    },
    page: Number.isFinite(page) && page > 0 ? Math.min(page, 10_000) : 1,
    on: validDay(query('on'), ctx.timeZone),
  }
}

/** The address of the calendar with these parameters (the filters kept unless overridden). */
export function calendarHref(member: DashboardMember, params: CalendarParams, change: Partial<CalendarParams> = {}) {
  const p = { ...params, ...change, filter: { ...params.filter, ...change.filter } }
  const search = new URLSearchParams({ view: p.view })
  if (p.view !== 'list' || !p.on) search.set('day', p.day)
  if (p.filter.accountId) search.set('account', p.filter.accountId)
  if (p.filter.platform) search.set('network', p.filter.platform)
  if (p.filter.status) search.set('status', p.filter.status)
  if (p.filter.groupId) search.set('group', p.filter.groupId)
  if (p.filter.labelId) search.set('label', p.filter.labelId)
  if (p.view === 'list' && p.on) search.set('on', p.on)
  if (p.view === 'list' && p.page > 1) search.set('page', String(p.page))
  return workspacePage(member, `/calendar?${search.toString()}`)
}
