/**
 * The week on a time grid: hours down, the seven days across, each post in the hour slot of its
 * time in the workspace zone, at most WEEK_PER_SLOT per slot and "+N more" past them. An hour's
 * slots have one height across the week (the most crowded day's), so the grid lines up without
 * inline styles. On a phone the days stack into a day-by-day list of the slots that hold posts.
 */
import type { CalendarPostRow } from '../../services/posts/calendar'
import type { DashboardMember } from '../env'
import { CalendarPost, type CalendarPostProps } from './calendar-post'

/** Posts shown per hour slot before "+N more". */
export const WEEK_PER_SLOT = 2
/** The working day always shown; earlier or later hours appear when a post is there. */
const FIRST_HOUR = 8
const LAST_HOUR = 20

export interface GridContext {
  member: DashboardMember
  csrfToken: string
  here: string
  today: string
  /** `YYYY-MM-DDTHH` of now in the zone (the current hour's slot is marked). */
  nowHour: string
  /** Where "+N more" of a day leads (the list of that day). */
  moreHref(day: string): string
  /** The composer at a day and hour; null when the member's role cannot write posts. */
  composeHref: ((localTime: string) => string) | null
  /** The day as the page says it ("Monday 14 January"). */
  dayLabel(day: string): string
}

const hourKey = (h: number) => String(h).padStart(2, '0')

function hoursShown(posts: CalendarPostRow[]): number[] {
  let first = FIRST_HOUR
  let last = LAST_HOUR
  for (const p of posts) {
    const h = Number(p.local.slice(11, 13))
    first = Math.min(first, h)
    last = Math.max(last, h)
  }
  return Array.from({ length: last - first + 1 }, (_, i) => first + i)
}

/** Posts by `YYYY-MM-DDTHH`. */
function bySlot(posts: CalendarPostRow[]): Map<string, CalendarPostRow[]> {
  const out = new Map<string, CalendarPostRow[]>()
  for (const p of posts) {
    const key = p.local.slice(0, 13)
    const list = out.get(key)
    if (list) list.push(p)
    else out.set(key, [p])
  }
  return out
}

export function WeekGrid(props: { days: string[]; posts: CalendarPostRow[]; ctx: GridContext }) {
  const { days, ctx } = props
  const slots = bySlot(props.posts)
  const hours = hoursShown(props.posts)
  // An hour row is as tall as its most crowded slot of the week: 0, 1 or 2 posts.
  const fill = new Map(
    hours.map((h) => [h, Math.max(...days.map((d) => (slots.get(`${d}T${hourKey(h)}`) ?? []).length))]),
  )
  return (
    <div class="cal-week" id="calendar" data-view="week">
      <div class="cal-hours" aria-hidden="true">
        <div class="cal-day-head" />
        {hours.map((h) => (
          <div class={`cal-hour-label fill-${fill.get(h)}`}>{`${hourKey(h)}:00`}</div>
        ))}
      </div>
      {days.map((day) => {
        const count = hours.reduce((n, h) => n + (slots.get(`${day}T${hourKey(h)}`)?.[0]?.slotTotal ?? 0), 0)
        return (
          <section
            class={`cal-day${day === ctx.today ? ' is-today' : ''}${count === 0 ? ' is-empty' : ''}`}
            data-day={day}
            id={`day-${day}`}
            aria-label={ctx.dayLabel(day)}
          >
            <h2 class="cal-day-head">
              <span class="cal-day-long">{ctx.dayLabel(day)}</span>
              <span class="cal-day-short" aria-hidden="true">
                {ctx
                  .dayLabel(day)
                  .split(' ')
                  .slice(0, 2)
                  .join(' ')
                  .replace(/^(\w{3})\w*/, '$1')}
              </span>
              {day === ctx.today ? <span class="cal-today-tag">Today</span> : null}
              <NewPostLink day={day} ctx={ctx} />
            </h2>
            <p class="cal-day-empty">No posts</p>
            <ol class="cal-slots">
              {hours.map((h) => (
                <WeekSlot
                  day={day}
                  hour={hourKey(h)}
                  fill={fill.get(h) ?? 0}
                  posts={slots.get(`${day}T${hourKey(h)}`) ?? []}
                  ctx={ctx}
                />
              ))}
            </ol>
          </section>
        )
      })}
    </div>
  )
}

/** The "+" of a day's heading: the composer at 09:00 that day; nothing when the member cannot write posts. */
export function NewPostLink(props: { day: string; ctx: GridContext }) {
  const { day, ctx } = props
  if (!ctx.composeHref) return null
  return (
    <a class="cal-add" href={ctx.composeHref(`${day}T09:00`)} aria-label={`New post on ${ctx.dayLabel(day)}`}>
      +
    </a>
  )
}

/** The posts a week slot or a month day shows, then "+N more" linking to the day's list when it holds more. */
export function SlotPosts(props: {
  day: string
  posts: CalendarPostRow[]
  total: number
  ctx: GridContext
  size: CalendarPostProps['size']
}) {
  const { day, posts, total, ctx } = props
  return (
    <>
      {posts.length > 0 ? (
        <ul>
          {posts.map((post) => (
            <CalendarPost post={post} member={ctx.member} csrfToken={ctx.csrfToken} here={ctx.here} size={props.size} />
          ))}
        </ul>
      ) : null}
      {total > posts.length ? (
        <a class="cal-more" href={ctx.moreHref(day)}>
          +{total - posts.length} more
        </a>
      ) : null}
    </>
  )
}

function WeekSlot(props: { day: string; hour: string; fill: number; posts: CalendarPostRow[]; ctx: GridContext }) {
  const { day, hour, posts, ctx } = props
  const total = posts[0]?.slotTotal ?? 0
  const key = `${day}T${hour}`
  return (
    <li
      class={`cal-slot fill-${props.fill}${posts.length === 0 ? ' is-empty' : ''}${key === ctx.nowHour ? ' is-now' : ''}`}
      data-day={day}
      data-hour={hour}
    >
      <span class="cal-slot-time">{`${hour}:00`}</span>
      <SlotPosts day={day} posts={posts} total={total} ctx={ctx} size="card" />
    </li>
  )
}
