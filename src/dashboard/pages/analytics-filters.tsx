/**
 * The analytics page's filters (`?days=` or `?from=&to=`, `accountId`, `platform`, `groupId`, `labelId`), read from the
 * address and drawn as a GET form, and the CSV download of the same selection (`/analytics.csv`,
 * the service of `GET /v1/analytics` with `Accept: text/csv`).
 */
import type { Hono } from 'hono'
import { AppError } from '../../domain/errors'
import { PLATFORM_IDS, type PlatformId } from '../../domain/vocabulary'
import { analyticsCsv } from '../../services/analytics/csv'
import { ANALYTICS_PERIODS, type AnalyticsQuery } from '../../services/analytics/read'
import { type DashboardEnv, type DashboardMember, workspacePage } from '../env'
import { networkName } from '../ui'

const DAY = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/

export interface PageFilters {
  days: number
  from?: string
  to?: string
  accountId?: string
  platform?: PlatformId
  groupId?: string
  labelId?: string
}

const idOf = (v: string | undefined) => (v && v.length <= 64 ? v : undefined)

/** The filters of the address; anything malformed is left out (the page then shows its default). */
export function filtersOf(q: (name: string) => string | undefined): PageFilters {
  const n = Number(q('days'))
  const days = (ANALYTICS_PERIODS as readonly number[]).includes(n) ? n : 30
  const day = (name: string) => {
    const v = q(name)
    return v && DAY.test(v) ? v : undefined
  }
  const platform = q('platform')
  const accountId = q('accountId')
  return {
    days,
    from: day('from'),
    to: day('to'),
    accountId: accountId && accountId.length <= 64 ? accountId : undefined,
    platform: (PLATFORM_IDS as readonly string[]).includes(platform ?? '') ? (platform as PlatformId) : undefined,
    groupId: idOf(q('groupId')),
    labelId: idOf(q('labelId')),
  }
}

/** What the services are asked for. */
export function queryOf(f: PageFilters): AnalyticsQuery {
  return {
    ...(f.from || f.to ? { from: f.from, to: f.to } : { days: f.days }),
    accountId: f.accountId,
    platform: f.platform,
    groupId: f.groupId,
    labelId: f.labelId,
  }
}

/** The filters as an address query (for the period links and the CSV link). */
export function searchOf(f: PageFilters, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams()
  if (f.from || f.to) {
    if (f.from) params.set('from', f.from)
    if (f.to) params.set('to', f.to)
  } else params.set('days', String(f.days))
  if (f.accountId) params.set('accountId', f.accountId)
  if (f.platform) params.set('platform', f.platform)
  if (f.groupId) params.set('groupId', f.groupId)
  if (f.labelId) params.set('labelId', f.labelId)
  for (const [k, v] of Object.entries(extra)) params.set(k, v)
  return params.toString()
}

export function FilterForm(props: {
  member: DashboardMember
  filters: PageFilters
  accounts: Array<{ accountId: string; username: string; platform: PlatformId }>
  groups: Array<{ id: string; name: string }>
  labels: Array<{ id: string; name: string }>
}) {
  const { member, filters: f } = props
  const platforms = [...new Set(props.accounts.map((a) => a.platform))]
  return (
    <form method="get" action={workspacePage(member, '/analytics')} class="analytics-filters" aria-label="Filters">
      <label>
        From <input type="date" name="from" value={f.from ?? ''} />
      </label>
      <label>
        To <input type="date" name="to" value={f.to ?? ''} />
      </label>
      <label>
        Account{' '}
        <select name="accountId">
          <option value="">All accounts</option>
          {props.accounts.map((a) => (
            <option value={a.accountId} selected={a.accountId === f.accountId}>
              {a.username} ({networkName(a.platform)})
            </option>
          ))}
        </select>
      </label>
      <label>
        Network{' '}
        <select name="platform">
          <option value="">All networks</option>
          {platforms.map((p) => (
            <option value={p} selected={p === f.platform}>
              {networkName(p)}
            </option>
          ))}
        </select>
      </label>
      {props.groups.length > 0 ? (
        <label>
          Group{' '}
          <select name="groupId">
            <option value="">All groups</option>
            {props.groups.map((g) => (
              <option value={g.id} selected={g.id === f.groupId}>
                {g.name}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      {props.labels.length > 0 ? (
        <label>
          Label{' '}
          <select name="labelId">
            <option value="">Any label</option>
            {props.labels.map((l) => (
              <option value={l.id} selected={l.id === f.labelId}>
                {l.name}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <button type="submit" class="btn btn-secondary">
        Apply
      </button>
      <a class="btn btn-secondary" href={workspacePage(member, `/analytics.csv?${searchOf(f)}`)} download>
        Download CSV
      </a>
    </form>
  )
}

/** Registers the CSV download of the page's selection. */
export function registerAnalyticsCsv(app: Hono<DashboardEnv>): void {
  app.get('/analytics.csv', async (c) => {
    const member = c.get('member')
    const f = filtersOf((name) => c.req.query(name))
    try {
      const query = { ...queryOf(f), visibleGroupIds: member.groupIds }
      const csv = await analyticsCsv(c.var.deps.db, member.workspaceId, c.var.deps.clock.now(), query)
      return c.body(csv.body, 200, {
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="${csv.filename}"`,
      })
    } catch (err) {
      if (!(err instanceof AppError)) throw err
      return c.text(err.message, err.code === 'not_found' ? 404 : 400)
    }
  })
}
