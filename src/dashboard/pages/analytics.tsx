/**
 * Analytics (`/analytics?days=7|30|90`): the period's totals, engagement per day and followers per
 * account as charts drawn on the server (SVG, each with its table), the per-network comparison, the
 * top posts and the best-times grid as a heat map, from the services of `GET /v1/analytics` and
 * `GET /v1/analytics/best-times`.
 */
import type { Hono } from 'hono'
import { getBestTimes } from '../../services/analytics/best-times'
import type { BestTimesReport } from '../../services/analytics/best-times-stats'
import { AppError } from '../../domain/errors'
import { ANALYTICS_PERIODS, type Analytics, getAnalytics } from '../../services/analytics/read'
import { getPost } from '../../services/posts/read'
import { type DashboardEnv, type DashboardMember, workspacePage } from '../env'
import { Layout } from '../layout'
import { BarChart, LineChart } from './analytics-chart'
import { listGroups } from '../../services/groups/groups'
import { listLabels } from '../../services/labels/labels'
import { dashboardCaller } from '../caller'
import { FilterForm, filtersOf, registerAnalyticsCsv, type PageFilters, queryOf, searchOf } from './analytics-filters'
import { FOLLOWERS_WHEN, NetworkComparison, POST_FIGURES_WHEN, TopPosts, Totals } from './analytics-sections'
import { byNetwork, engagementByDay, periodTotals, topPosts } from './analytics-summary'
import { networkName } from '../ui'
import { WEEKDAY_NAMES } from './queue'
import { frame, type PageContext } from './shared'

const REASONS: Record<BestTimesReport['reason'], string> = {
  ok: '',
  few_posts: 'Not enough published posts yet to tell the best times.',
  few_samples: 'Too few posts have engagement figures yet to tell the best times.',
  low_engagement: 'Engagement is too low so far for the times to differ meaningfully.',
  not_collected: 'No engagement figures have been collected yet for these networks.',
}

/** The weekday x hour grid of scores as a heat map (5 shades, the score in each cell for screen readers). */
export function HeatMap({ report }: { report: BestTimesReport }) {
  const scores = report.grid.flat().filter((v): v is number => v !== null)
  const max = scores.length ? Math.max(...scores) : 0
  const shade = (v: number | null) => (v === null || max <= 0 ? 0 : Math.min(4, 1 + Math.floor((v / max) * 3.999)))
  return (
    <table class="heatmap">
      <caption>Best times to publish ({report.timezone}), by weekday and hour</caption>
      <thead>
        <tr>
          <th scope="col">Day</th>
          {Array.from({ length: 24 }, (_, h) => (
            <th scope="col">{h}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {report.grid.map((row, day) => (
          <tr>
            <th scope="row">{WEEKDAY_NAMES[day]}</th>
            {row.map((v) => (
              <td class={`heat-${shade(v)}`}>{v === null ? '' : v.toFixed(1)}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  )
}

const FOLLOWERS_CHART_ACCOUNTS = 6

function PeriodPicker({ member, filters }: { member: DashboardMember; filters: PageFilters }) {
  const custom = Boolean(filters.from || filters.to)
  return (
    <nav class="period-picker" aria-label="Period">
      {ANALYTICS_PERIODS.map((d) => (
        <a
          href={workspacePage(
            member,
            `/analytics?${searchOf({ ...filters, from: undefined, to: undefined, days: d })}`,
          )}
          aria-current={!custom && d === filters.days ? 'page' : undefined}
        >
          {d} days
        </a>
      ))}
    </nav>
  )
}

/** The analytics of the filters; a period the service refuses (from after to, too long) falls back to the default, with why. */
async function analyticsFor(c: PageContext, filters: PageFilters, now: Date) {
  const { db } = c.var.deps
  const { workspaceId, groupIds: visibleGroupIds } = c.get('member')
  try {
    const query = { ...queryOf(filters), visibleGroupIds, maxPosts: PAGE_POSTS_MAX }
    return { analytics: await getAnalytics(db, workspaceId, now, query) }
  } catch (err) {
    if (!(err instanceof AppError)) throw err
    const query = { days: filters.days, visibleGroupIds, maxPosts: PAGE_POSTS_MAX }
    const analytics = await getAnalytics(db, workspaceId, now, query)
    return { analytics, problem: err.code === 'not_found' ? 'That account is not in this workspace.' : err.message }
  }
}

/** The followers chart of the accounts that report them (or why there is none). */
function Followers({ analytics }: { analytics: Analytics }) {
  const reporting = analytics.accounts.filter((a) => a.reports.followers)
  const withFigures = reporting.filter((a) => a.series.some((p) => p.followers !== null))
  if (analytics.accounts.length === 0) return <p class="empty-note">Connect an account to see its followers here.</p>
  if (withFigures.length === 0) return <p class="empty-note">No follower count collected yet. {FOLLOWERS_WHEN}</p>
  const shown = withFigures.slice(0, FOLLOWERS_CHART_ACCOUNTS)
  return (
    <LineChart
      id="chart-followers"
      title={`Followers per day (${shown.length === 1 ? shown[0]!.username : `${shown.length} accounts`})`}
      unit="followers"
      series={shown.map((a, i) => ({
        name: `${a.username} (${networkName(a.platform)})`,
        tone: i + 1,
        points: a.series.map((p) => ({ day: p.day, value: p.followers })),
      }))}
    />
  )
}

/** Registers the analytics page. */
export function registerAnalytics(app: Hono<DashboardEnv>): void {
  registerAnalyticsCsv(app)
  app.get('/analytics', async (c) => {
    const { member, csrfToken } = frame(c)
    const now = c.var.deps.clock.now()
    const filters = filtersOf((name) => c.req.query(name))
    const caller = dashboardCaller(c)
    const [{ analytics, problem }, best, all, groups, labels] = await Promise.all([
      analyticsFor(c, filters, now),
      getBestTimes(c.var.deps.db, member.workspaceId, now, caller.access.groupIds),
      getAnalytics(c.var.deps.db, member.workspaceId, now, { days: 1, maxPosts: 0, visibleGroupIds: member.groupIds }),
      listGroups(c.var.deps.db, caller),
      listLabels(c.var.deps.db, member.workspaceId),
    ])
    const days = (Date.parse(analytics.period.to) - Date.parse(analytics.period.from)) / 86_400_000 + 1
    const top = topPosts(analytics)
    const captions = await captionsOf(
      c,
      top.map((p) => p.postId),
    )
    const daily = engagementByDay(analytics)
    return c.html(
      <Layout title="Analytics" member={member} csrfToken={csrfToken} current="analytics">
        <header class="analytics-header">
          <h1>Analytics</h1>
          <PeriodPicker member={member} filters={filters} />
        </header>
        <FilterForm member={member} filters={filters} accounts={all.accounts} groups={groups} labels={labels} />
        {problem ? (
          <p class="notice notice-problem" role="alert">
            {problem} Showing the last {filters.days} days instead.
          </p>
        ) : null}
        <p class="muted">
          {analytics.period.from} to {analytics.period.to} ({analytics.timezone})
          {analytics.refreshing ? '; a refresh is under way, figures may change within a minute.' : '.'}
        </p>
        <Totals totals={periodTotals(analytics)} days={days} />
        {analytics.recentPosts.length === PAGE_POSTS_MAX ? (
          <p class="muted">Counted over the latest {PAGE_POSTS_MAX} published posts of the period.</p>
        ) : null}
        <div class="analytics-charts">
          <section class="analytics-section" aria-labelledby="engagement-title">
            <h2 id="engagement-title">Engagement</h2>
            {analytics.recentPosts.length === 0 ? (
              <p class="empty-note">
                No post published in the last {days} days. {POST_FIGURES_WHEN}
              </p>
            ) : daily.every((d) => d.engagement === null) ? (
              <p class="empty-note">
                {analytics.recentPosts.length} published in the last {days} days, none with engagement figures yet.{' '}
                {POST_FIGURES_WHEN}
              </p>
            ) : (
              <BarChart
                id="chart-engagement"
                title="Engagement of the posts published each day"
                unit="engagement"
                points={daily.map((d) => ({ day: d.day, value: d.engagement }))}
              />
            )}
          </section>
          <section class="analytics-section" aria-labelledby="followers-title">
            <h2 id="followers-title">Followers</h2>
            <Followers analytics={analytics} />
          </section>
        </div>
        <NetworkComparison networks={byNetwork(analytics)} />
        <TopPosts analytics={analytics} top={top} captions={captions} member={member} />
        <section class="analytics-section" aria-labelledby="best-title">
          <h2 id="best-title">Best times</h2>
          {best.overall.insufficient ? (
            <p class="notice">
              {REASONS[best.overall.reason]} ({best.overall.observations} of {best.overall.minObservations} posts
              needed.)
            </p>
          ) : null}
          <section class="table-scroll" tabindex={0} aria-labelledby="best-title">
            <HeatMap report={best.overall} />
          </section>
        </section>
      </Layout>,
    )
  })
}

/** Posts counted on the page at most (the API's list keeps its own cap). */
const PAGE_POSTS_MAX = 2000

/** The first words of each post's caption (a post deleted since is left out). */
async function captionsOf(c: PageContext, postIds: string[]): Promise<Map<string, string>> {
  const workspaceId = c.get('member').workspaceId
  const posts = await Promise.all(
    [...new Set(postIds)].map((id) => getPost(c.var.deps.db, workspaceId, id).catch(() => null)),
  )
  const cut = (s: string) => (s.length > 60 ? `${s.slice(0, 59)}…` : s)
  return new Map(posts.filter((p) => p !== null).map((p) => [p.id, cut((p.caption ?? '').split('\n')[0]!.trim())]))
}
