/**
 * Analytics (`/analytics`): followers over 30 days per account as a chart drawn on the server
 * (inline SVG, no script), recent posts' engagement, and the best-times grid as a heat map, from
 * the services of `GET /v1/analytics` and `GET /v1/analytics/best-times`.
 */
import type { Hono } from 'hono'
import { getBestTimes } from '../../services/analytics/best-times'
import type { BestTimesReport } from '../../services/analytics/best-times-stats'
import { getAnalytics, type AccountAnalytics } from '../../services/analytics/read'
import type { DashboardEnv } from '../env'
import { Layout } from '../layout'
import { WEEKDAY_NAMES } from './queue'
import { frame, ZonedTime } from './shared'

const REASONS: Record<BestTimesReport['reason'], string> = {
  ok: '',
  few_posts: 'Not enough published posts yet to tell the best times.',
  few_samples: 'Too few posts have engagement figures yet to tell the best times.',
  low_engagement: 'Engagement is too low so far for the times to differ meaningfully.',
  not_collected: 'No engagement figures have been collected yet for these networks.',
}

const W = 600
const H = 160
const PAD = 30

/** Followers per day as a polyline; days without a figure break the line. */
export function FollowersChart({ account }: { account: AccountAnalytics }) {
  const values = account.series.map((p) => p.followers).filter((v): v is number => v !== null)
  const title = `Followers of ${account.username} (${account.platform}), last ${account.series.length} days`
  if (values.length === 0) return <p>{title}: no figures collected yet.</p>
  const min = Math.min(...values)
  const max = Math.max(...values)
  const span = max - min || 1
  const x = (i: number) => PAD + (i * (W - 2 * PAD)) / Math.max(1, account.series.length - 1)
  const y = (v: number) => H - PAD - ((v - min) * (H - 2 * PAD)) / span
  const runs: string[][] = [[]]
  account.series.forEach((p, i) => {
    if (p.followers === null) runs.push([])
    else runs[runs.length - 1]!.push(`${x(i).toFixed(1)},${y(p.followers).toFixed(1)}`)
  })
  return (
    <figure>
      <svg
        class="chart"
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={`${title}: from ${values[0]} to ${values[values.length - 1]}`}
      >
        <line class="axis" x1={PAD} y1={H - PAD} x2={W - PAD} y2={H - PAD} />
        <line class="axis" x1={PAD} y1={PAD} x2={PAD} y2={H - PAD} />
        <text x={2} y={PAD}>
          {max}
        </text>
        <text x={2} y={H - PAD}>
          {min}
        </text>
        <text x={PAD} y={H - 8}>
          {account.series[0]!.day}
        </text>
        <text x={W - PAD - 60} y={H - 8}>
          {account.series[account.series.length - 1]!.day}
        </text>
        {runs
          .filter((r) => r.length > 0)
          .map((r) =>
            r.length === 1 ? (
              <circle cx={r[0]!.split(',')[0]} cy={r[0]!.split(',')[1]} r={2} class="line" />
            ) : (
              <polyline class="line" points={r.join(' ')} />
            ),
          )}
      </svg>
      <figcaption>{title}</figcaption>
    </figure>
  )
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

const figure = (v: number | null) => (v === null ? '-' : String(v))

/** Registers the analytics page. */
export function registerAnalytics(app: Hono<DashboardEnv>): void {
  app.get('/analytics', async (c) => {
    const { member, csrfToken } = frame(c)
    const now = c.var.deps.clock.now()
    const [analytics, best] = await Promise.all([
      getAnalytics(c.var.deps.db, member.workspaceId, now),
      getBestTimes(c.var.deps.db, member.workspaceId, now),
    ])
    const names = new Map(analytics.accounts.map((a) => [a.accountId, a.username]))
    return c.html(
      <Layout title="Analytics" member={member} csrfToken={csrfToken} current="analytics">
        <h1>Analytics</h1>
        <h2>Followers</h2>
        {analytics.accounts.length === 0 ? <p>No account yet.</p> : null}
        {analytics.accounts
          .filter((a) => a.reports.followers)
          .map((a) => (
            <FollowersChart account={a} />
          ))}
        <h2>Recent posts</h2>
        {analytics.recentPosts.length === 0 ? <p>No post published in the last 30 days.</p> : null}
        <table>
          <caption>Engagement of posts published in the last 30 days</caption>
          <thead>
            <tr>
              <th scope="col">Published</th>
              <th scope="col">Account</th>
              <th scope="col">Likes</th>
              <th scope="col">Comments</th>
              <th scope="col">Shares</th>
              <th scope="col">Saves</th>
              <th scope="col">Views</th>
              <th scope="col">Engagement</th>
              <th scope="col">Post</th>
            </tr>
          </thead>
          <tbody>
            {analytics.recentPosts.map((p) => (
              <tr>
                <td>
                  <ZonedTime at={p.publishedAt} timeZone={analytics.timezone} />
                </td>
                <td>
                  {names.get(p.accountId) ?? p.accountId} <span class="muted">{p.platform}</span>
                </td>
                <td>{figure(p.metrics.likes)}</td>
                <td>{figure(p.metrics.comments)}</td>
                <td>{figure(p.metrics.shares)}</td>
                <td>{figure(p.metrics.saves)}</td>
                <td>{figure(p.metrics.views)}</td>
                <td>{figure(p.engagement)}</td>
                <td>{p.permalink ? <a href={p.permalink}>Open</a> : '-'}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <h2>Best times</h2>
        {best.overall.insufficient ? (
          <p class="notice">
            {REASONS[best.overall.reason]} ({best.overall.observations} of {best.overall.minObservations} posts needed.)
          </p>
        ) : null}
        <HeatMap report={best.overall} />
      </Layout>,
    )
  })
}
