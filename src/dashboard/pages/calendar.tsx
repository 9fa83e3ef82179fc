/**
 * The calendar (`/calendar`, also the workspace home): the workspace's posts in its time zone as a
 * week on a time grid, a month of compact chips, or a filtered, paginated list. A post is moved with
 * its time form (`POST /posts/{id}/reschedule`, the service behind `POST /v1/posts/{id}/schedule`)
 * or by dragging it (calendar.js posts the same form); a failed target is retried with the service
 * behind `POST /v1/posts/{id}/retry`.
 */
import { dashboardCaller } from '../caller'
import { can } from '../../domain/access'
import { Onboarding } from '../ui/onboarding'
import { listGroups } from '../../services/groups/groups'
import { listLabels } from '../../services/labels/labels'
import { requirePermission } from '../workspace'
import { assertPostVisible, assertPostWritable } from '../../services/access/visibility'
import type { Hono } from 'hono'
import { ClientScript } from '../assets/client-assets'
import { retryFailedTargets } from '../../services/publishing/actions'
import {
  calendarAccounts,
  calendarGridPosts,
  calendarListPage,
  type CalendarPostRow,
} from '../../services/posts/calendar'
import { reschedulePost } from '../../services/posts/update'
import { type DashboardEnv, type DashboardMember, workspacePage } from '../env'
import { Layout } from '../layout'
import { CalendarFilters, CalendarToolbar, StatusTabs } from './calendar-filters'
import { CalendarLegend } from './calendar-legend'
import { loadUnscheduled, UnscheduledPosts } from './calendar-unscheduled'
import { CalendarList, LIST_PAGE_SIZE } from './calendar-list'
import { MONTH_PER_DAY, MonthGrid } from './calendar-month'
import { type CalendarParams, readCalendarParams } from './calendar-params'
import { type GridContext, WEEK_PER_SLOT, WeekGrid } from './calendar-week'
import { back, frame, isNotFound, Notice, orNotFound, type PageContext, refusalOf } from './shared'
import { calendarDays, dayKeyOf, fromLocalInput, toLocalInput, zonedDay } from './zoned-time'

const DAY_LABEL = new Intl.DateTimeFormat('en-GB', { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' })
const MONTH_LABEL = new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'UTC' })
const utcOf = (day: string) => new Date(`${day}T00:00:00Z`)

/** The first day of the month `n` months from `day`'s. */
function monthStep(day: string, n: number): string {
  const d = new Date(Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1 + n, 1))
  return d.toISOString().slice(0, 10)
}

/** The page's heading: the week's dates, the month, or what the list holds. */
function headingOf(params: CalendarParams, days: string[]): string {
  if (params.view === 'month') return MONTH_LABEL.format(utcOf(params.day))
  if (params.view === 'week') return `Week of ${DAY_LABEL.format(utcOf(days[0]!))}`
  if (params.on) return `Posts of ${DAY_LABEL.format(utcOf(params.on))}`
  const names = {
    upcoming: 'Upcoming posts',
    published: 'Published posts',
    failed: 'Failed posts',
    draft: 'Drafts',
    review: 'Posts in review',
  }
  return params.filter.status ? names[params.filter.status] : 'All posts'
}

/** What a view shows: the grid's posts (week, month) or a page of the list. */
async function loadView(c: PageContext, member: DashboardMember, params: CalendarParams) {
  const { db, clock } = c.var.deps
  const tz = member.timeZone
  if (params.view === 'list') {
    const day = params.on ? { from: zonedDay(params.on, tz), to: zonedDay(params.on, tz, 1) } : undefined
    const list = await calendarListPage(db, {
      workspaceId: member.workspaceId,
      timeZone: tz,
      now: clock.now(),
      filter: { ...params.filter, visibleGroupIds: member.groupIds },
      page: params.page,
      pageSize: LIST_PAGE_SIZE,
      day: day && { from: new Date(day.from.getTime()), to: new Date(day.to.getTime()) },
    })
    return { days: [] as string[], posts: [] as CalendarPostRow[], list }
  }
  const days = calendarDays(params.view, params.day, tz)
  const posts = await calendarGridPosts(db, {
    workspaceId: member.workspaceId,
    timeZone: tz,
    days,
    filter: { ...params.filter, visibleGroupIds: member.groupIds },
    slot: params.view === 'week' ? 'hour' : 'day',
    perSlot: params.view === 'week' ? WEEK_PER_SLOT : MONTH_PER_DAY,
  })
  return { days, posts, list: null }
}

async function calendarPage(c: PageContext) {
  const { member, csrfToken } = frame(c)
  const tz = member.timeZone
  const nowLocal = toLocalInput(c.var.deps.clock.now(), tz)
  const today = nowLocal.slice(0, 10)
  const caller = dashboardCaller(c)
  const [accounts, groups, labels] = await Promise.all([
    calendarAccounts(c.var.deps.db, member.workspaceId, { visibleGroupIds: member.groupIds }),
    listGroups(c.var.deps.db, caller),
    listLabels(c.var.deps.db, member.workspaceId),
  ])
  const params = readCalendarParams((name) => c.req.query(name), {
    timeZone: tz,
    today,
    accountIds: new Set(accounts.map((a) => a.id)),
    groupIds: new Set(groups.map((g) => g.id)),
    labelIds: new Set(labels.map((l) => l.id)),
  })
  const [{ days, posts, list }, drafts] = await Promise.all([
    loadView(c, member, params),
    params.view === 'list' ? [] : loadUnscheduled(c, member),
  ])
  const here = c.req.url.slice(c.req.url.indexOf(workspacePage(member)))
  const ctx: GridContext = {
    member,
    csrfToken,
    here,
    today,
    nowHour: nowLocal.slice(0, 13),
    moreHref: (day) => workspacePage(member, `/calendar?view=list&on=${day}`),
    composeHref: can(member.role, 'write') ? (at) => workspacePage(member, `/compose?at=${at}`) : null,
    dayLabel: (day) => DAY_LABEL.format(utcOf(day)),
  }
  const step =
    params.view === 'week'
      ? { previous: dayKeyOf(zonedDay(days[0]!, tz, -7)), next: dayKeyOf(zonedDay(days[0]!, tz, 7)) }
      : params.view === 'month'
        ? { previous: monthStep(params.day, -1), next: monthStep(params.day, 1) }
        : null
  return c.html(
    <Layout title="Calendar" member={member} csrfToken={csrfToken} current="calendar">
      <div class="cal-page">
        <Notice c={c} />
        <Onboarding c={c} />
        <header class="cal-header">
          <h1>
            {headingOf(params, days)} <span class="cal-zone muted">{tz}</span>
          </h1>
          <CalendarToolbar member={member} params={params} step={step} today={today} />
        </header>
        <CalendarFilters member={member} params={params} accounts={accounts} groups={groups} labels={labels} />
        {params.view === 'list' ? <StatusTabs member={member} params={params} /> : <CalendarLegend />}
        <p id="calendar-status" class="cal-live" role="status"></p>
        <input type="hidden" name="_csrf" value={csrfToken} />
        {params.view === 'week' ? (
          <div class="cal-scroll">
            <WeekGrid days={days} posts={posts} ctx={ctx} />
          </div>
        ) : null}
        {params.view === 'month' ? (
          <MonthGrid days={days} month={params.day.slice(0, 7)} posts={posts} ctx={ctx} />
        ) : null}
        {list ? <CalendarList list={list} params={params} ctx={ctx} /> : null}
        <UnscheduledPosts posts={drafts} member={member} />
      </div>
      <ClientScript page="calendar" />
    </Layout>,
  )
}

/** Where a form goes back to: its `back` field when it is a page of this workspace, else the calendar. */
function backOf(member: DashboardMember, form: Record<string, unknown>): string {
  return typeof form.back === 'string' && form.back.startsWith(`${workspacePage(member)}/`)
    ? form.back
    : workspacePage(member, '/calendar')
}

/** Registers the calendar, the home page, rescheduling and the calendar's retry. */
export function registerCalendar(app: Hono<DashboardEnv>): void {
  app.get('/', calendarPage)
  app.get('/calendar', calendarPage)

  app.post('/posts/:postId/reschedule', (c) =>
    orNotFound(c, async () => {
      const refused = requirePermission(c, 'publish')
      if (refused) return refused
      const { member } = frame(c)
      // Outside the member's groups: not found, before the form is read.
      await assertPostVisible(c.var.deps.db, dashboardCaller(c), c.req.param('postId'))
      const form = await c.req.parseBody()
      const wantsJson = (c.req.header('accept') ?? '').includes('application/json')
      const at = typeof form.scheduledAt === 'string' ? fromLocalInput(form.scheduledAt, member.timeZone) : null
      let problem: string | null = at ? null : 'Enter a date and time.'
      if (at) {
        try {
          await assertPostWritable(c.var.deps.db, dashboardCaller(c), c.req.param('postId'))
          await reschedulePost(c.var.deps, dashboardCaller(c), c.req.param('postId'), at)
        } catch (err) {
          if (isNotFound(err)) throw err
          problem = refusalOf(err).message
        }
      }
      if (wantsJson) return c.json(problem ? { ok: false, message: problem } : { ok: true }, problem ? 422 : 200)
      return back(c, backOf(member, form), problem ? { problem } : { notice: 'Post rescheduled.' })
    }),
  )

  app.post('/calendar/posts/:postId/retry', (c) =>
    orNotFound(c, async () => {
      const refused = requirePermission(c, 'publish')
      if (refused) return refused
      const { member } = frame(c)
      const form = await c.req.parseBody()
      try {
        await assertPostWritable(c.var.deps.db, dashboardCaller(c), c.req.param('postId'))
        await retryFailedTargets(c.var.deps, dashboardCaller(c), c.req.param('postId'))
      } catch (err) {
        if (isNotFound(err)) throw err
        return back(c, backOf(member, form), { problem: refusalOf(err).message })
      }
      return back(c, backOf(member, form), { notice: 'Failed targets are publishing again.' })
    }),
  )
}
