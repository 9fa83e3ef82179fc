import { describe, expect, it } from 'vitest'
import { writeHistory } from '../../support/analytics-history'
import { account, fixedClock } from '../../support/fixtures'
import { createTestApp } from '../../support/test-app'

const T0 = '2026-03-10T10:00:00.000Z'
const DAY = 86_400_000
const daysAgo = (n: number) => new Date(Date.parse(T0) - n * DAY)

/** A workspace with photo and micro posts over three months, with figures. */
async function history() {
  const t = await createTestApp({ clock: fixedClock(T0) })
  const photo = await account(t, 'PHOTO_NET')
  const micro = await account(t, 'MICROBLOG_NET')
  const chat = await account(t, 'CHAT_NET')
  const figures = (likes: number) => [{ at: T0, figures: { likes, comments: 1, views: likes * 10, shares: 0 } }]
  const targets = await writeHistory(t, [
    { account: photo, publishedAt: daysAgo(1), snapshots: figures(10), caption: '=HYPERLINK("http://x.test","win")' },
    { account: photo, publishedAt: daysAgo(5), snapshots: figures(20), caption: 'Hello, "world"\nsecond line' },
    { account: micro, publishedAt: daysAgo(3), snapshots: figures(4), caption: '+1 for this' },
    { account: chat, publishedAt: daysAgo(2), caption: '-chat' },
    { account: photo, publishedAt: daysAgo(60), snapshots: figures(100) },
  ])
  return { t, photo, micro, chat, targets }
}

describe('GET /v1/analytics over a period', () => {
  it('keeps its answer of old by default, and adds the period, totals per network and refreshing', async () => {
    const { t, photo } = await history()
    const body = await (await t.call('GET', '/v1/analytics')).json()
    expect(body.period).toEqual({
      from: '2026-02-09',
      to: '2026-03-10',
      accountId: null,
      platform: null,
      groupId: null,
      labelId: null,
    })
    expect(body.refreshing).toBe(false)
    expect(body.accounts[0].series).toHaveLength(30)
    expect(body.recentPosts).toHaveLength(4)
    expect(body.totals).toMatchObject({ posts: 4, collected: 3, engagement: 10 + 1 + 20 + 1 + 4 + 1 })
    expect(body.totals.metrics).toMatchObject({ likes: 34, comments: 3, views: 340, clicks: null, reach: null })
    expect(body.totals.engagementRate).toBe(Math.round((37 / 340) * 10_000) / 10_000)
    const byPlatform = Object.fromEntries(body.byPlatform.map((p: any) => [p.platform, p]))
    expect(byPlatform.PHOTO_NET).toMatchObject({ accounts: 1, posts: 2, collected: 2, engagement: 32 })
    // The chat network reports nothing: its post counts, its figures stay null.
    expect(byPlatform.CHAT_NET).toMatchObject({ posts: 1, collected: 0, engagement: null, engagementRate: null })
    expect(Object.values(byPlatform.CHAT_NET.metrics).every((v) => v === null)).toBe(true)
    expect(body.accounts.find((a: any) => a.accountId === photo.id).refreshing).toBe(false)
  })

  it('narrows to from/to, an account or a network', async () => {
    const { t, photo, micro } = await history()
    const long = await (await t.call('GET', '/v1/analytics?from=2025-12-01&to=2026-03-10')).json()
    expect(long.accounts[0].series).toHaveLength(100)
    expect(long.totals.posts).toBe(5)
    const week = await (await t.call('GET', '/v1/analytics?from=2026-03-04&to=2026-03-08')).json()
    expect(week.recentPosts.map((p: any) => p.platform).sort()).toEqual(['CHAT_NET', 'MICROBLOG_NET', 'PHOTO_NET'])
    const one = await (await t.call('GET', `/v1/analytics?accountId=${micro.id}`)).json()
    expect(one.accounts.map((a: any) => a.accountId)).toEqual([micro.id])
    expect(one.totals.posts).toBe(1)
    const net = await (await t.call('GET', '/v1/analytics?platform=PHOTO_NET')).json()
    expect(net.accounts.map((a: any) => a.accountId)).toEqual([photo.id])
    expect(net.byPlatform.map((p: any) => p.platform)).toEqual(['PHOTO_NET'])
  })

  it('refuses a bad period in words, and another workspace account as an unknown one', async () => {
    const { t } = await history()
    const reversed = await t.call('GET', '/v1/analytics?from=2026-03-10&to=2026-03-01')
    expect(reversed.status).toBe(400)
    expect((await reversed.json()).error.message).toBe(
      'from (2026-03-10) is after to (2026-03-01); the period runs from from to to, both included.',
    )
    const tooLong = await t.call('GET', '/v1/analytics?from=2024-01-01&to=2026-03-01')
    expect(tooLong.status).toBe(400)
    expect((await tooLong.json()).error.message).toContain('at most 366 days')
    const badDay = await t.call('GET', '/v1/analytics?from=2026-02-30x')
    expect(badDay.status).toBe(400)
    expect((await t.call('GET', '/v1/analytics?platform=NOPE')).status).toBe(400)

    const other = await createTestApp()
    const theirs = await account(other, 'PHOTO_NET')
    const res = await t.call('GET', `/v1/analytics?accountId=${theirs.id}`)
    expect(res.status).toBe(404)
    const never = await t.call('GET', '/v1/analytics?accountId=acc_never_issued')
    const { code, message } = (await res.json()).error
    expect((await never.json()).error).toMatchObject({ code, message })
  })

  it('answers CSV with Accept: text/csv, one row per target, escaped and guarded against formulas', async () => {
    const { t, targets } = await history()
    const res = await t.call('GET', '/v1/analytics?from=2026-03-01', { headers: { Accept: 'text/csv' } })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(res.headers.get('content-disposition')).toBe(
      'attachment; filename="analytics-workspace-2026-03-01-2026-03-10.csv"',
    )
    expect(res.headers.get('x-rows-left-off')).toBe('0')
    const text = await res.text()
    const lines = text.split('\r\n')
    expect(lines[0]).toBe(
      'target_id,post_id,account_id,platform,username,source,published_at,permalink,caption,likes,comments,shares,views,saves,clicks,impressions,reach,engagement,engagement_rate,collected_at,labels',
    )
    expect(lines.at(-1)).toBe('')
    // Newest first; the formula is defused and quoted (it holds quotes and a comma).
    expect(lines[1]).toContain(`${targets[0]},`)
    expect(lines[1]).toContain(`,"'=HYPERLINK(""http://x.test"",""win"")",10,1,0,100,,,,,11,0.11,${T0}`)
    expect(text).toContain('"Hello, ""world""\nsecond line"')
    expect(text).toContain(",'+1 for this,")
    expect(text).toContain(",'-chat,,,,,,,,,,,")
    expect(text).not.toContain('history')
    // The JSON answer is still the default, and with both types the first named wins.
    const json = await t.call('GET', '/v1/analytics', { headers: { Accept: 'application/json, text/csv' } })
    expect(json.headers.get('content-type')).toContain('application/json')
  })
})
