/**
 * The calendar (`/calendar`, also the workspace home): a week or a month of the workspace's posts
 * in the workspace time zone, each with its networks and status. A post is rescheduled with its
 * time form (`POST /posts/{id}/reschedule`, the service behind `POST /v1/posts/{id}/schedule`) or
 * by dragging it to another day (calendar.js posts the same form).
 */
import { ClientScript } from '../assets/client-assets'
import { Onboarding } from '../ui/onboarding'
import type { Hono } from 'hono'
import { listPosts, listPostsBetween } from '../../services/posts/read'
import type { PostRecord } from '../../services/posts/record'
import { reschedulePost } from '../../services/posts/write'
import { type DashboardEnv, type DashboardMember, workspacePage } from '../env'
import { Layout } from '../layout'
import {
  back,
  CsrfField,
  frame,
  isNotFound,
  Notice,
  orNotFound,
  type PageContext,
  refusalOf,
  StatusBadge,
} from './shared'
import { calendarDays, dayKeyOf, fromLocalInput, localDayOf, localTimeOf, toLocalInput, zonedDay } from './zoned-time'

const RESCHEDULABLE = new Set(['DRAFT', 'SCHEDULED', 'FAILED'])
const DAY = /^\d{4}-\d{2}-\d{2}$/
const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']

/** When a post shows on the calendar: when it went out, else when it is planned. */
const timeOf = (p: PostRecord) => p.publishedAt ?? p.scheduledAt

const excerpt = (text: string | null) => {
  const t = (text ?? '').replace(/\s+/g, ' ').trim()
  return t.length > 60 ? `${t.slice(0, 59)}…` : t || '(no caption)'
}

function PostCard({
  post,
  member,
  csrfToken,
  here,
}: {
  post: PostRecord
  member: DashboardMember
  csrfToken: string
  here: string
}) {
  const at = timeOf(post)!
  const movable = RESCHEDULABLE.has(post.status) && post.scheduledAt !== null
  const inputId = `at-${post.id}`
  return (
    <li
      class="post"
      id={`post-${post.id}`}
      draggable={movable ? 'true' : undefined}
      data-post={movable ? post.id : undefined}
      data-time={localTimeOf(at, member.timeZone)}
      data-reschedule={movable ? workspacePage(member, `/posts/${post.id}/reschedule`) : undefined}
    >
      <a href={workspacePage(member, `/posts/${post.id}`)}>
        <time datetime={at}>{localTimeOf(at, member.timeZone)}</time> {excerpt(post.caption)}
      </a>
      <div>
        <StatusBadge status={post.status} />{' '}
        <span class="networks">{[...new Set(post.targets.map((t) => t.platform))].join(', ')}</span>
      </div>
      {movable ? (
        <details>
          <summary>Reschedule</summary>
          <form method="post" action={workspacePage(member, `/posts/${post.id}/reschedule`)}>
            <CsrfField token={csrfToken} />
            <input type="hidden" name="back" value={here} />
            <label for={inputId}>New time ({member.timeZone})</label>
            <input
              type="datetime-local"
              id={inputId}
              name="scheduledAt"
              value={toLocalInput(at, member.timeZone)}
              required
            />
            <button type="submit">Move</button>
          </form>
        </details>
      ) : null}
    </li>
  )
}

/** Registers the calendar, the home page and rescheduling. */
export function registerCalendar(app: Hono<DashboardEnv>): void {
  const calendar = async (c: PageContext) => {
    const { member, csrfToken } = frame(c)
    const tz = member.timeZone
    const view = c.req.query('view') === 'month' ? 'month' : 'week'
    const today = dayKeyOf(zonedDay(localDayOf(c.var.deps.clock.now(), tz), tz))
    const asked = c.req.query('day')
    const anchor = asked && DAY.test(asked) && fromLocalInput(`${asked}T00:00`, tz) ? asked : today
    const days = calendarDays(view, anchor, tz)
    const from = zonedDay(days[0]!, tz)
    const to = zonedDay(days[days.length - 1]!, tz, 1)
    const [posts, drafts] = await Promise.all([
      listPostsBetween(c.var.deps.db, member.workspaceId, new Date(from.getTime()), new Date(to.getTime())),
      listPosts(c.var.deps.db, member.workspaceId, { status: 'DRAFT', sort: 'createdAt' }, 20),
    ])
    const byDay = new Map<string, PostRecord[]>()
    for (const p of [...posts].sort((a, b) => timeOf(a)!.localeCompare(timeOf(b)!))) {
      const key = localDayOf(timeOf(p)!, tz)
      byDay.set(key, [...(byDay.get(key) ?? []), p])
    }
    const anchorDate = zonedDay(anchor, tz)
    const step = (n: number) =>
      view === 'week'
        ? dayKeyOf(zonedDay(anchor, tz, 7 * n))
        : monthStep(anchorDate.getFullYear(), anchorDate.getMonth() + n)
    const link = (day: string, v = view) => workspacePage(member, `/calendar?view=${v}&day=${day}`)
    const here = link(anchor)
    const title = new Intl.DateTimeFormat('en-GB', {
      month: 'long',
      year: 'numeric',
      ...(view === 'week' ? { day: 'numeric' } : {}),
      timeZone: tz,
    }).format(new Date(zonedDay(view === 'week' ? days[0]! : anchor, tz).getTime()))
    return c.html(
      <Layout title="Calendar" member={member} csrfToken={csrfToken} current="calendar">
        <h1>
          {view === 'week' ? `Week of ${title}` : title} <span class="muted">({tz})</span>
        </h1>
        <Notice c={c} />
        <Onboarding c={c} />
        <nav class="actions" aria-label="Calendar navigation">
          <a href={link(step(-1))}>Previous</a>
          <a href={link(today)}>Today</a>
          <a href={link(step(1))}>Next</a>
          <a href={link(anchor, 'week')} aria-current={view === 'week' ? 'page' : undefined}>
            Week
          </a>
          <a href={link(anchor, 'month')} aria-current={view === 'month' ? 'page' : undefined}>
            Month
          </a>
          <a href={workspacePage(member, '/compose')}>New post</a>
        </nav>
        <p id="calendar-status" role="status"></p>
        <input type="hidden" name="_csrf" value={csrfToken} />
        <div class="calendar" id="calendar">
          {WEEKDAYS.map((d) => (
            <div class="weekday" aria-hidden="true">
              {d}
            </div>
          ))}
          {days.map((day) => {
            const date = zonedDay(day, tz)
            const outside = view === 'month' && date.getMonth() !== anchorDate.getMonth()
            const label = new Intl.DateTimeFormat('en-GB', {
              weekday: 'long',
              day: 'numeric',
              month: 'long',
              timeZone: tz,
            }).format(new Date(date.getTime()))
            return (
              <section
                class={`day${outside ? ' outside' : ''}${day === today ? ' today' : ''}`}
                data-day={day}
                id={`day-${day}`}
                aria-label={label}
              >
                <h2 class="day-title">
                  {date.getDate()}{' '}
                  <a href={workspacePage(member, `/compose?at=${day}T09:00`)} aria-label={`New post on ${label}`}>
                    +
                  </a>
                </h2>
                <ul>
                  {(byDay.get(day) ?? []).map((post) => (
                    <PostCard post={post} member={member} csrfToken={csrfToken} here={here} />
                  ))}
                </ul>
              </section>
            )
          })}
        </div>
        <h2>Drafts</h2>
        {drafts.length === 0 ? <p>No drafts.</p> : null}
        <ul>
          {drafts.map((d) => (
            <li>
              <a href={workspacePage(member, `/posts/${d.id}`)}>{excerpt(d.caption)}</a>
            </li>
          ))}
        </ul>
        <ClientScript page="calendar" />
      </Layout>,
    )
  }
  app.get('/', calendar)
  app.get('/calendar', calendar)

  app.post('/posts/:postId/reschedule', (c) =>
    orNotFound(c, async () => {
      const { member } = frame(c)
      const postId = c.req.param('postId')
      const form = await c.req.parseBody()
      const wantsJson = (c.req.header('accept') ?? '').includes('application/json')
      const backTo =
        typeof form.back === 'string' && form.back.startsWith(`${workspacePage(member)}/`)
          ? form.back
          : workspacePage(member, '/calendar')
      const at = typeof form.scheduledAt === 'string' ? fromLocalInput(form.scheduledAt, member.timeZone) : null
      let problem: string | null = at ? null : 'Enter a date and time.'
      if (at) {
        try {
          await reschedulePost(c.var.deps, member.workspaceId, postId, at)
        } catch (err) {
          if (isNotFound(err)) throw err
          problem = refusalOf(err).message
        }
      }
      if (wantsJson) return c.json(problem ? { ok: false, message: problem } : { ok: true }, problem ? 422 : 200)
      return back(c, backTo, problem ? { problem } : { notice: 'Post rescheduled.' })
    }),
  )
}

/** The first day of a month (months past December or before January roll over the year). */
function monthStep(year: number, month: number): string {
  const d = new Date(Date.UTC(year, month, 1))
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}-01`
}
