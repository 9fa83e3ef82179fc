import { describe, expect, it } from 'vitest'
import { PLATFORM_IDS } from '../../../src/domain/vocabulary'
import { account, fixedClock } from '../../support/fixtures'
import { group, limitedToken } from '../../support/groups'
import { createTestApp, type TestApp } from '../../support/test-app'
import { scoredPost, weekly, writeHistory, type HistoryPost } from '../../support/analytics-history'

const NOW = '2026-05-15T12:00:00.000Z' // a Friday
const HOUR = 3_600_000

async function app(timezone = 'UTC'): Promise<TestApp> {
  return createTestApp({ clock: fixedClock(NOW), timezone })
}

async function bestTimes(t: TestApp) {
  const res = await t.call('GET', '/v1/best-times')
  expect(res.status).toBe(200)
  return res.json()
}

const reportFor = (body: any, platform: string) => body.byPlatform.find((p: any) => p.platform === platform)?.report

function expectInsufficient(report: any, reason: string) {
  expect(report).toMatchObject({ insufficient: true, reason, slots: [], minObservations: 20 })
  expect(report.grid).toHaveLength(7)
  expect(report.grid.flat().every((c: unknown) => c === null)).toBe(true)
}

describe('GET /v1/best-times', () => {
  it('finds Tuesday 18:00 when posts there earn twice the usual, pooling accounts of very different sizes', async () => {
    const other = await app()
    const otherBoard = await account(other, 'PINBOARD_NET')
    // Another workspace's strong Saturday 07:00 never shows up here.
    await writeHistory(
      other,
      weekly('2026-05-09T07:00:00Z', 25).map((d) => ({
        account: otherBoard,
        publishedAt: d,
        snapshots: [{ at: new Date(d.getTime() + 72 * HOUR), figures: { saves: 500 } }],
      })),
    )

    const t = await app()
    const sizes = [
      { acc: await account(t, 'PHOTO_NET'), typical: 10 },
      { acc: await account(t, 'MICROBLOG_NET'), typical: 100 },
      { acc: await account(t, 'SOCIALGRAPH_NET'), typical: 1000 },
    ]
    const chat = await account(t, 'CHAT_NET')
    const noise = [0.9, 1.0, 1.1]
    const history: HistoryPost[] = []
    for (const { acc, typical } of sizes) {
      for (const [first, multiple] of [
        ['2026-05-04T09:00:00Z', 1], // Monday 09:00
        ['2026-05-06T12:00:00Z', 1], // Wednesday 12:00
        ['2026-05-07T15:00:00Z', 1], // Thursday 15:00
        ['2026-05-08T10:00:00Z', 1], // Friday 10:00
        ['2026-05-05T18:00:00Z', 2], // Tuesday 18:00
      ] as const) {
        weekly(first, 20).forEach((d, i) =>
          history.push(scoredPost(acc, d, Math.round(typical * multiple * noise[i % 3]!))),
        )
      }
    }
    // A network without per-post figures: its posts are left out of `overall`.
    weekly('2026-05-05T18:00:00Z', 25).forEach((d) =>
      history.push({
        account: chat,
        publishedAt: d,
        snapshots: [{ at: new Date(d.getTime() + 72 * HOUR), figures: {} }],
      }),
    )
    await writeHistory(t, history)

    const body = await bestTimes(t)
    const { overall } = body
    expect(overall).toMatchObject({
      timezone: 'UTC',
      observations: 300,
      minObservations: 20,
      insufficient: false,
      reason: 'ok',
    })
    expect(overall.slots[0]).toMatchObject({ weekday: 2, minutes: 18 * 60, samples: 60 })
    // (60 posts x 2 + prior 5 x 1) / 65 = 1.92
    expect(overall.slots[0].score).toBeGreaterThan(1.85)
    expect(overall.slots[0].score).toBeLessThanOrEqual(2)
    for (const slot of overall.slots.slice(1)) expect(Math.abs(slot.score - 1)).toBeLessThan(0.06)
    expect(overall.slots).toHaveLength(5)
    expect(overall.grid).toHaveLength(7)
    for (const row of overall.grid) expect(row).toHaveLength(24)
    expect(overall.grid[2][18]).toBe(overall.slots[0].score)
    expect(overall.grid[1][9]).toBeCloseTo(1, 1)
    expect(overall.grid[6][7]).toBeNull()
    expect(overall.grid[0][0]).toBeNull()

    expect(body.byPlatform.map((p: any) => p.platform)).toEqual(
      ['MICROBLOG_NET', 'SOCIALGRAPH_NET', 'PHOTO_NET', 'CHAT_NET'].sort((a, b) => order(a) - order(b)),
    )
    for (const platform of ['PHOTO_NET', 'MICROBLOG_NET', 'SOCIALGRAPH_NET']) {
      const report = reportFor(body, platform)
      expect(report).toMatchObject({ reason: 'ok', observations: 100 })
      expect(report.slots[0]).toMatchObject({ weekday: 2, minutes: 1080, samples: 20 })
      expect(report.slots[0].score).toBeCloseTo(1.8, 1) // (20 x 2 + 5) / 25
    }
    expectInsufficient(reportFor(body, 'CHAT_NET'), 'not_collected')
  })

  it('ranks twenty steady posts above two lucky ones (small samples shrink toward the typical post)', async () => {
    const t = await app()
    const photo = await account(t, 'PHOTO_NET')
    const history: HistoryPost[] = []
    for (const first of ['2026-05-04T09:00:00Z', '2026-05-06T12:00:00Z', '2026-05-07T15:00:00Z'])
      weekly(first, 20).forEach((d) => history.push(scoredPost(photo, d, 100)))
    weekly('2026-05-08T10:00:00Z', 20).forEach((d) => history.push(scoredPost(photo, d, 160))) // Friday 10:00, steady x1.6
    weekly('2026-05-09T20:00:00Z', 2).forEach((d) => history.push(scoredPost(photo, d, 240))) // Saturday 20:00, two lucky x2.4
    await writeHistory(t, history)

    const { overall } = await bestTimes(t)
    expect(overall.reason).toBe('ok')
    const steady = overall.slots.find((s: any) => s.weekday === 5 && s.minutes === 600)
    const lucky = overall.slots.find((s: any) => s.weekday === 6 && s.minutes === 1200)
    expect(steady).toEqual({ weekday: 5, minutes: 600, score: 1.48, samples: 20 }) // (20 x 1.6 + 5) / 25
    expect(lucky).toEqual({ weekday: 6, minutes: 1200, score: 1.4, samples: 2 }) // (2 x 2.4 + 5) / 7
    expect(overall.slots[0]).toEqual(steady)
  })

  it('keeps slots in local wall-clock time across daylight saving (Europe/Berlin)', async () => {
    const t = await app('Europe/Berlin')
    const photo = await account(t, 'PHOTO_NET')
    const history: HistoryPost[] = []
    // Tuesday 18:00 in Berlin: 17:00Z in winter (CET), 16:00Z in summer (CEST, from 29 March 2026).
    const tuesday18 = [...weekly('2026-05-12T16:00:00Z', 7), ...weekly('2026-03-24T17:00:00Z', 19)]
    const thursday10 = [...weekly('2026-05-07T08:00:00Z', 6), ...weekly('2026-03-26T09:00:00Z', 19)]
    // Monday 23:30Z in winter is already Tuesday 00:30 in Berlin.
    const lateMonday = weekly('2026-03-23T23:30:00Z', 19)
    tuesday18.forEach((d) => history.push(scoredPost(photo, d, 200)))
    thursday10.forEach((d) => history.push(scoredPost(photo, d, 100)))
    lateMonday.forEach((d) => history.push(scoredPost(photo, d, 100)))
    await writeHistory(t, history)

    const { overall } = await bestTimes(t)
    expect(overall).toMatchObject({ timezone: 'Europe/Berlin', reason: 'ok', observations: 70 })
    expect(overall.slots[0]).toEqual({ weekday: 2, minutes: 1080, samples: 26, score: 1.84 }) // (26 x 2 + 5) / 31
    expect(overall.slots.find((s: any) => s.weekday === 4 && s.minutes === 600)?.samples).toBe(25)
    expect(overall.slots.find((s: any) => s.weekday === 2 && s.minutes === 0)?.samples).toBe(19)
    expect(overall.grid[2][17]).toBeNull()
    expect(overall.grid[2][16]).toBeNull()
    expect(overall.grid[1][23]).toBeNull()
    expect(overall.grid[4][9]).toBeNull()
  })

  it('says few_posts below minObservations posts', async () => {
    const t = await app()
    const photo = await account(t, 'PHOTO_NET')
    await writeHistory(
      t,
      weekly('2026-05-05T18:00:00Z', 5).map((d) => scoredPost(photo, d, 100)),
    )
    const body = await bestTimes(t)
    expectInsufficient(body.overall, 'few_posts')
    expect(body.overall.observations).toBe(5)
    expectInsufficient(reportFor(body, 'PHOTO_NET'), 'few_posts')
  })

  it('says few_samples when enough posts exist but too few have collected (mature) figures', async () => {
    const t = await app()
    const photo = await account(t, 'PHOTO_NET')
    const dates = weekly('2026-05-05T18:00:00Z', 25)
    await writeHistory(t, [
      ...dates.slice(0, 8).map((d) => scoredPost(photo, d, 100)),
      // Collected only 6 hours after publication: too young to compare.
      ...dates.slice(8, 18).map((d) => ({
        account: photo,
        publishedAt: d,
        snapshots: [{ at: new Date(d.getTime() + 6 * HOUR), figures: { likes: 40 } }],
      })),
      ...dates.slice(18).map((d) => ({ account: photo, publishedAt: d })),
    ])
    const { overall } = await bestTimes(t)
    expectInsufficient(overall, 'few_samples')
    expect(overall.observations).toBe(8)
  })

  it('says low_engagement when posts earn too few interactions; zeros are measurements, not missing', async () => {
    const t = await app()
    const photo = await account(t, 'PHOTO_NET')
    await writeHistory(
      t,
      weekly('2026-05-05T18:00:00Z', 25).map((d, i) => ({
        account: photo,
        publishedAt: d,
        snapshots: [{ at: new Date(d.getTime() + 72 * HOUR), figures: { likes: i % 3, comments: 0, views: 40 } }],
      })),
    )
    const { overall } = await bestTimes(t)
    expectInsufficient(overall, 'low_engagement')
    expect(overall.observations).toBe(25)
  })

  it('says not_collected when the network reports nothing, or every figure collected is null', async () => {
    const t = await app()
    const chat = await account(t, 'CHAT_NET')
    const professional = await account(t, 'PROFESSIONAL_NET')
    const dates = weekly('2026-05-05T18:00:00Z', 25)
    const nullSnapshot = (d: Date) => [{ at: new Date(d.getTime() + 72 * HOUR), figures: {} }]
    await writeHistory(t, [
      ...dates.map((d) => ({ account: chat, publishedAt: d, snapshots: nullSnapshot(d) })),
      ...dates.map((d) => ({ account: professional, publishedAt: d })),
    ])
    const body = await bestTimes(t)
    expectInsufficient(body.overall, 'not_collected')
    expectInsufficient(reportFor(body, 'CHAT_NET'), 'not_collected')
    expectInsufficient(reportFor(body, 'PROFESSIONAL_NET'), 'not_collected')

    // A network that does report, but for which every snapshot came back null: nothing was collected.
    const u = await app()
    const photo = await account(u, 'PHOTO_NET')
    await writeHistory(
      u,
      dates.map((d) => ({ account: photo, publishedAt: d, snapshots: nullSnapshot(d) })),
    )
    const photoBody = await bestTimes(u)
    expectInsufficient(photoBody.overall, 'not_collected')
    expect(photoBody.overall.observations).toBe(0)
  })

  it("gives a token limited to a group the history and platforms of its group's accounts only", async () => {
    const t = await app()
    const mine = await account(t, 'MICROBLOG_NET', 'client_a')
    const theirs = await account(t, 'PHOTO_NET', 'client_b')
    const ga = await group(t, 'Client A', [mine.id])
    await group(t, 'Client B', [theirs.id])
    await writeHistory(t, [
      ...weekly('2026-05-05T18:00:00Z', 20).map((d) => scoredPost(mine, d, 200)), // Tuesdays 18:00
      ...weekly('2026-05-04T09:00:00Z', 20).map((d) => scoredPost(mine, d, 100)), // Mondays 09:00
      ...weekly('2026-05-09T07:00:00Z', 20).map((d) => scoredPost(theirs, d, 500)), // Saturdays 07:00
      ...weekly('2026-05-06T12:00:00Z', 20).map((d) => scoredPost(theirs, d, 100)), // Wednesdays 12:00
    ])
    const slotsOf = (report: any) => report.slots.map((s: any) => [s.weekday, s.minutes])

    const token = await limitedToken(t, [ga.id])
    const res = await t.call('GET', '/v1/best-times', { token })
    expect(res.status).toBe(200)
    const limited = await res.json()
    expect(limited.overall).toMatchObject({ reason: 'ok', observations: 40 })
    expect(slotsOf(limited.overall)).toEqual([
      [2, 1080],
      [1, 540],
    ])
    expect(limited.byPlatform.map((p: any) => p.platform)).toEqual(['MICROBLOG_NET'])

    const all = await bestTimes(t)
    expect(all.overall.observations).toBe(80)
    expect(slotsOf(all.overall)).toContainEqual([6, 420])
    expect(all.byPlatform.map((p: any) => p.platform).sort()).toEqual(['MICROBLOG_NET', 'PHOTO_NET'])
  })

  it('answers few_posts for an empty workspace, and 401 without a token', async () => {
    const t = await app()
    const body = await bestTimes(t)
    expectInsufficient(body.overall, 'few_posts')
    expect(body.byPlatform).toEqual([])
    expect((await t.call('GET', '/v1/best-times', { token: null })).status).toBe(401)
  })
})

const order = (p: string) => (PLATFORM_IDS as readonly string[]).indexOf(p)
