import { describe, expect, it } from 'vitest'
import { followerSnapshots } from '../../../src/db/schema'
import { getAnalytics } from '../../../src/services/analytics/read'
import { writeHistory } from '../../support/analytics-history'
import { writeAnalyticsMonth } from '../../support/analytics-month'
import { account, fixedClock } from '../../support/fixtures'
import { mountContentPages } from '../../support/dashboard-pages'

const number = (v: number) => new Intl.NumberFormat('en-GB').format(v)
const NOW = '2026-03-30T18:00:00Z'

/** The rows of the data table behind a chart (by the chart's id). */
function tableRows(html: string, chartId: string): string[][] {
  const figure = html.slice(html.indexOf(`id="${chartId}"`))
  const table = figure.slice(figure.indexOf('<tbody>'), figure.indexOf('</tbody>'))
  return [...table.matchAll(/<tr>(.*?)<\/tr>/g)].map((m) =>
    [...m[1]!.matchAll(/<t[hd][^>]*>(.*?)<\/t[hd]>/g)].map((c) => c[1]!),
  )
}

describe('analytics page', () => {
  it("shows the period's totals, a bar per day with its tooltip and table, and the top posts, as the service counts them", async () => {
    const clock = fixedClock(NOW)
    const p = await mountContentPages({ clock })
    await writeAnalyticsMonth(p.t, clock.now())
    const service = await getAnalytics(p.t.deps.db, p.t.workspaceId, clock.now(), { days: 30 })
    const html = await (await p.get('/analytics')).text()

    const engagement = service.recentPosts.reduce((s, x) => s + (x.engagement ?? 0), 0)
    const views = service.recentPosts.reduce((s, x) => s + (x.metrics.views ?? 0), 0)
    const followers = service.accounts.reduce((s, a) => s + a.series[a.series.length - 1]!.followers!, 0)
    expect(html).toMatch(new RegExp(`<dt>Posts published</dt><dd[^>]*>${service.recentPosts.length}</dd>`))
    expect(html).toMatch(new RegExp(`<dt>Engagement</dt><dd[^>]*>${number(engagement)}</dd>`))
    expect(html).toMatch(new RegExp(`<dt>Views</dt><dd[^>]*>${number(views)}</dd>`))
    expect(html).toMatch(new RegExp(`<dt>Followers</dt><dd[^>]*>${number(followers)}</dd>`))

    // One row per day of the period in the bar chart's table, each day's sum as the service's posts give it.
    const rows = tableRows(html, 'chart-engagement')
    expect(rows.map((r) => r[0])).toEqual(service.accounts[0]!.series.map((s) => s.day))
    const day = service.recentPosts[0]!.publishedAt.slice(0, 10)
    const daySum = service.recentPosts
      .filter((x) => x.publishedAt.startsWith(day))
      .reduce((s, x) => s + x.engagement!, 0)
    expect(rows.find((r) => r[0] === day)![1]).toBe(number(daySum))
    expect(html).toContain(`<title>${Number(day.slice(8))} Mar: ${number(daySum)} engagement</title>`)
    expect(html.match(/<rect class="chart-bar"/g)).toHaveLength(rows.filter((r) => r[1] !== '–').length)
    expect(html).toMatch(/<svg class="chart" id="chart-engagement" viewBox="[^"]+" role="img" aria-label="[^"]+"/)
    expect(html).toMatch(/<details class="chart-data"><summary>Show the figures as a table<\/summary>/)
    // Axes: tick labels on the y axis and day labels on the x axis.
    expect(html).toMatch(/<text class="chart-tick"[^>]*text-anchor="end">0<\/text>/)
    expect(html).toContain('>30 Mar</text>')

    // Followers: one line per account, each point with its tooltip.
    expect(html.match(/<polyline class="chart-line"/g)).toHaveLength(2)
    expect(tableRows(html, 'chart-followers')[29]).toEqual([
      '2026-03-30',
      number(service.accounts[0]!.series[29]!.followers!),
      number(service.accounts[1]!.series[29]!.followers!),
    ])

    // Top posts link to their post pages; the best one first.
    const best = [...service.recentPosts].sort((a, b) => b.engagement! - a.engagement!)[0]!
    const firstLink = /<table class="top-posts cards-on-phone">[\s\S]*?<a href="([^"]+)">/.exec(html)![1]
    expect(firstLink).toBe(p.page(`/posts/${best.postId}`))
    expect(html).toContain('Microblog')
  })

  it('the period comes from the address: 7 days draws 7 days', async () => {
    const clock = fixedClock(NOW)
    const p = await mountContentPages({ clock })
    await writeAnalyticsMonth(p.t, clock.now())
    const html = await (await p.get('/analytics?days=7')).text()
    expect(tableRows(html, 'chart-engagement')).toHaveLength(7)
    expect(html).toMatch(/<a href="[^"]+\/analytics\?days=7" aria-current="page">7 days<\/a>/)
    const odd = await (await p.get('/analytics?days=12')).text()
    expect(tableRows(odd, 'chart-engagement')).toHaveLength(30)
  })

  it('says when figures will appear on an empty workspace', async () => {
    const p = await mountContentPages()
    const fresh = await account(p.t, 'MICROBLOG_NET', 'fresh')
    const html = await (await p.get('/analytics')).text()
    expect(html).toContain(
      'No post published in the last 30 days. Figures of a published post are first collected within a few minutes of publishing',
    )
    expect(html).toContain('No follower count collected yet. Follower counts are collected once a day per account')
    expect(html).not.toContain('<svg class="chart"')
    // Published, figures not collected yet: still no empty chart, and the same promise.
    await writeHistory(p.t, [{ account: fresh, publishedAt: new Date(Date.now() - 3_600_000) }])
    const waiting = await (await p.get('/analytics')).text()
    expect(waiting).toContain(
      '1 published in the last 30 days, none with engagement figures yet. Figures of a published',
    )
    expect(waiting).not.toContain('id="chart-engagement"')
  })

  it('a single day of followers is a point with a note, not a flat line', async () => {
    const clock = fixedClock(NOW)
    const p = await mountContentPages({ clock })
    const micro = await account(p.t, 'MICROBLOG_NET', 'fresh')
    await p.t.deps.db
      .insert(followerSnapshots)
      .values({ accountId: micro.id, day: '2026-03-30', followers: 1234, collectedAt: clock.now() })
    const html = await (await p.get('/analytics')).text()
    expect(html).not.toContain('<polyline')
    expect(html.match(/<circle class="chart-point"/g)).toHaveLength(1)
    expect(html).toContain('<title>fresh (Microblog), 30 Mar: 1,234 followers</title>')
    expect(html).toContain('Only one day collected so far')
    // The axis spans the value rather than collapsing to it.
    expect(html).toMatch(/<text class="chart-tick"[^>]*>1,2\d0<\/text>/)
  })
})
