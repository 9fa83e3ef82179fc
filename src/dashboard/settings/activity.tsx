/**
 * The activity log of the workspace (`/settings/activity`, owners and admins): who did what, when (in
 * the workspace time zone) and from where, filtered by actor kind, action and days, paged by cursor,
 * and downloaded as CSV (`/settings/activity.csv`, the same filters) from a signed-in session.
 */
import type { Context, Hono } from 'hono'
import { ACTOR_KINDS } from '../../domain/access'
import { AppError } from '../../domain/errors'
import { ACTIVITY_PAGE_DEFAULT, type ActivityQuery, activityCsv, listActivity } from '../../services/activity/list'
import type { DashboardEnv } from '../env'
import { workspacePage } from '../env'
import { Message } from '../pages'
import { localDayOf, localTimeOf, zonedDay } from '../pages/zoned-time'
import { permitted } from '../workspace'
import { SettingsPage } from './frame'
import { ListTable } from './parts'

const ACTION_PREFIXES = [
  'post.',
  'target.',
  'account.',
  'token.',
  'member.',
  'webhook.',
  'workspace.',
  'group.',
  'review_link.',
]
const ACTOR_LABELS: Record<string, string> = {
  user: 'Dashboard user',
  token: 'API token',
  agent: 'Agent',
  review_link: 'Review link',
  system: 'Service',
}
const DAY = /^\d{4}-\d{2}-\d{2}$/

interface Filters {
  actorKind: string
  action: string
  from: string
  to: string
}

function readFilters(c: Context<DashboardEnv>): Filters {
  const q = (name: string) => (c.req.query(name) ?? '').trim()
  return {
    actorKind: (ACTOR_KINDS as readonly string[]).includes(q('actorKind')) ? q('actorKind') : '',
    action: ACTION_PREFIXES.includes(q('action')) ? q('action') : '',
    from: DAY.test(q('from')) ? q('from') : '',
    to: DAY.test(q('to')) ? q('to') : '',
  }
}

/** The filters as the service takes them: days of the workspace's zone, `to` included. */
function queryOf(f: Filters, timeZone: string, cursor: string | undefined): Omit<ActivityQuery, 'limit'> {
  return {
    actorKind: f.actorKind || undefined,
    action: f.action || undefined,
    from: f.from ? new Date(zonedDay(f.from, timeZone).getTime()).toISOString() : undefined,
    to: f.to ? new Date(zonedDay(f.to, timeZone, 1).getTime()).toISOString() : undefined,
    cursor,
  }
}

const searchOf = (f: Filters, extra: Record<string, string> = {}) => {
  const params = new URLSearchParams()
  for (const [k, v] of Object.entries({ ...f, ...extra })) if (v) params.set(k, v)
  const s = params.toString()
  return s ? `?${s}` : ''
}

function FilterForm(props: { action: string; filters: Filters }) {
  const f = props.filters
  return (
    <form method="get" action={props.action} class="activity-filters" aria-label="Filter the activity">
      <label>
        Who
        <select name="actorKind">
          <option value="">Anyone</option>
          {ACTOR_KINDS.map((k) => (
            <option value={k} selected={f.actorKind === k}>
              {ACTOR_LABELS[k] ?? k}
            </option>
          ))}
        </select>
      </label>
      <label>
        What
        <select name="action">
          <option value="">Everything</option>
          {ACTION_PREFIXES.map((p) => (
            <option value={p} selected={f.action === p}>
              {p.slice(0, -1).replace('_', ' ')}
            </option>
          ))}
        </select>
      </label>
      <label>
        From (day)
        <input name="from" type="date" value={f.from} />
      </label>
      <label>
        To (day, included)
        <input name="to" type="date" value={f.to} />
      </label>
      <button type="submit">Show</button>
    </form>
  )
}

async function render(c: Context<DashboardEnv>) {
  const { member, csrfToken, deps } = c.var
  const filters = readFilters(c)
  const cursor = c.req.query('cursor') || undefined
  const base = workspacePage(member, '/settings/activity')
  let page: Awaited<ReturnType<typeof listActivity>> = { data: [], nextCursor: null }
  let error: string | undefined
  try {
    page = await listActivity(deps.db, member.workspaceId, {
      ...queryOf(filters, member.timeZone, cursor),
      limit: ACTIVITY_PAGE_DEFAULT,
    })
  } catch (err) {
    if (!(err instanceof AppError) || err.code !== 'invalid_request') throw err
    error = err.message
  }
  const tz = member.timeZone
  return c.html(
    <SettingsPage title="Activity" section="/activity" member={member} csrfToken={csrfToken}>
      <p class="muted">Who did what, when and from where. Times are in the workspace time zone ({tz}).</p>
      <Message kind="error" text={error} />
      <FilterForm action={base} filters={filters} />
      <p>
        <a
          class="btn btn-secondary"
          href={`${workspacePage(member, '/settings/activity.csv')}${searchOf(filters)}`}
          download
        >
          Download CSV
        </a>
      </p>
      {page.data.length === 0 ? (
        <p>No activity matches.</p>
      ) : (
        <ListTable
          caption="Activity, newest first"
          columns={['When', 'Who', 'What', 'Address']}
          class="activity-log"
          testId="activity"
        >
          {page.data.map((e) => (
            <tr>
              <td data-label="When">
                <time datetime={e.at}>
                  {localDayOf(e.at, tz)} {localTimeOf(e.at, tz)}
                </time>
              </td>
              <td data-label="Who">
                {e.actor.name}{' '}
                {e.actor.kind === 'review_link' ? null : (
                  <span class="muted">({ACTOR_LABELS[e.actor.kind] ?? e.actor.kind})</span>
                )}
              </td>
              <td data-label="What">
                {e.summary} <span class="muted">· {e.action}</span>
              </td>
              <td data-label="Address">{e.ip ?? '—'}</td>
            </tr>
          ))}
        </ListTable>
      )}
      <nav aria-label="Pages" class="pager">
        {cursor ? <a href={`${base}${searchOf(filters)}`}>Newest</a> : null}{' '}
        {page.nextCursor ? <a href={`${base}${searchOf(filters, { cursor: page.nextCursor })}`}>Older</a> : null}
      </nav>
    </SettingsPage>,
  )
}

/** Registers `/settings/activity` and its CSV, for owners and admins. */
export function registerActivityPages(app: Hono<DashboardEnv>): void {
  app.get('/settings/activity', permitted('manage'), (c) => render(c))

  app.get('/settings/activity.csv', permitted('manage'), async (c) => {
    const { member, deps } = c.var
    const csv = await activityCsv(deps.db, member.workspaceId, queryOf(readFilters(c), member.timeZone, undefined))
    return c.body(csv.body, 200, {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="${csv.filename}"`,
    })
  })
}
