/**
 * The month: the weeks from Monday, each day a cell of fixed height with at most MONTH_PER_DAY
 * compact chips (time, first words, network marks) and "+N more" leading to that day's list. On a
 * phone the chips shrink to coloured dots and the day number leads to the day's list.
 */
import type { CalendarPostRow } from '../../services/posts/calendar'
import { type GridContext, NewPostLink, SlotPosts } from './calendar-week'

/** Chips shown per day before "+N more". */
export const MONTH_PER_DAY = 3
const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']

export function MonthGrid(props: { days: string[]; month: string; posts: CalendarPostRow[]; ctx: GridContext }) {
  const { ctx } = props
  const byDay = new Map<string, CalendarPostRow[]>()
  for (const p of props.posts) {
    const key = p.local.slice(0, 10)
    const list = byDay.get(key)
    if (list) list.push(p)
    else byDay.set(key, [p])
  }
  return (
    <div class="cal-month" id="calendar" data-view="month">
      {WEEKDAYS.map((d) => (
        <div class="cal-weekday" aria-hidden="true">
          {d}
        </div>
      ))}
      {props.days.map((day) => {
        const posts = byDay.get(day) ?? []
        const total = posts[0]?.slotTotal ?? 0
        const outside = !day.startsWith(props.month)
        return (
          <section
            class={`cal-mday${outside ? ' is-outside' : ''}${day === ctx.today ? ' is-today' : ''}`}
            data-day={day}
            id={`day-${day}`}
            aria-label={ctx.dayLabel(day)}
          >
            <h2 class="cal-mday-head">
              <a class="cal-mday-number" href={ctx.moreHref(day)}>
                <span aria-hidden="true">{Number(day.slice(8))}</span>
                <span class="visually-hidden">
                  {ctx.dayLabel(day)}: {total === 0 ? 'no posts' : `${total} post${total === 1 ? '' : 's'}`}
                </span>
              </a>
              <NewPostLink day={day} ctx={ctx} />
            </h2>
            <SlotPosts day={day} posts={posts} total={total} ctx={ctx} size="chip" />
          </section>
        )
      })}
    </div>
  )
}
