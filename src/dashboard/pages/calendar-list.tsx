/**
 * The list view: the workspace's posts under day headings, upcoming earliest first, published and
 * failed latest first, a page at a time (`page=N`), or one day's posts (`on=YYYY-MM-DD`, where
 * "+N more" leads).
 */
import type { CalendarListPage, CalendarPostRow } from '../../services/posts/calendar'
import { type CalendarParams, calendarHref } from './calendar-params'
import { CalendarPost } from './calendar-post'
import type { GridContext } from './calendar-week'

export const LIST_PAGE_SIZE = 25

function byDay(posts: CalendarPostRow[]): Array<[string, CalendarPostRow[]]> {
  const out: Array<[string, CalendarPostRow[]]> = []
  for (const p of posts) {
    const day = p.local.slice(0, 10)
    const last = out.at(-1)
    if (last && last[0] === day) last[1].push(p)
    else out.push([day, [p]])
  }
  return out
}

export function CalendarList(props: { list: CalendarListPage; params: CalendarParams; ctx: GridContext }) {
  const { list, params, ctx } = props
  const pages = Math.max(1, Math.ceil(list.total / list.pageSize))
  const first = (list.page - 1) * list.pageSize + 1
  return (
    <div class="cal-list" id="calendar" data-view="list">
      <p class="cal-list-count muted">
        {list.total === 0
          ? 'No posts match.'
          : `${first}-${first + list.posts.length - 1} of ${list.total} post${list.total === 1 ? '' : 's'}`}
      </p>
      {byDay(list.posts).map(([day, posts]) => (
        <section class="cal-list-day" data-day={day} id={`day-${day}`} aria-label={ctx.dayLabel(day)}>
          <h2 class={`cal-list-head${day === ctx.today ? ' is-today' : ''}`}>{ctx.dayLabel(day)}</h2>
          <ul>
            {posts.map((post) => (
              <CalendarPost post={post} member={ctx.member} csrfToken={ctx.csrfToken} here={ctx.here} size="card" />
            ))}
          </ul>
        </section>
      ))}
      {pages > 1 ? (
        <nav class="cal-pages" aria-label="Pages">
          {list.page > 1 ? (
            <a href={calendarHref(ctx.member, params, { page: list.page - 1 })} rel="prev">
              Previous page
            </a>
          ) : null}
          <span>
            Page {list.page} of {pages}
          </span>
          {list.hasMore ? (
            <a href={calendarHref(ctx.member, params, { page: list.page + 1 })} rel="next">
              Next page
            </a>
          ) : null}
        </nav>
      ) : null}
    </div>
  )
}
