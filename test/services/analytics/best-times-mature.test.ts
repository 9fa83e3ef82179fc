import { describe, expect, it } from 'vitest'
import { targetMetricSnapshots } from '../../../src/db/schema'
import { account, fixedClock } from '../../support/fixtures'
import { createTestApp, type TestApp } from '../../support/test-app'
import { scoredPost, weekly, writeHistory } from '../../support/analytics-history'

const NOW = '2026-05-15T12:00:00.000Z'
const HOUR = 3_600_000

async function slotScores(t: TestApp) {
  const res = await t.call('GET', '/v1/best-times')
  expect(res.status).toBe(200)
  const { overall } = await res.json()
  return { monday9: overall.grid[1][9], wednesday12: overall.grid[3][12], observations: overall.observations }
}

/** Snapshots collected later than the first report: the report follows the latest mature one of each post. */
async function collect(t: TestApp, targetIds: string[], dates: Date[], afterHours: number, likes: number) {
  await t.deps.db.insert(targetMetricSnapshots).values(
    targetIds.map((targetId, i) => ({
      id: `ms_late_${targetId}_${afterHours}`,
      targetId,
      collectedAt: new Date(dates[i]!.getTime() + afterHours * HOUR),
      likes,
      comments: null,
      shares: null,
      views: null,
      saves: null,
    })),
  )
}

describe('best times follow the snapshots collected after a report', () => {
  it('takes a newer mature snapshot, ignores a late-arriving older one and an immature one', async () => {
    const t = await createTestApp({ clock: fixedClock(NOW) })
    const photo = await account(t, 'PHOTO_NET')
    const mondays = weekly('2026-05-11T09:00:00Z', 20)
    const wednesdays = weekly('2026-05-06T12:00:00Z', 20)
    const mondayIds = await writeHistory(
      t,
      mondays.map((d) => scoredPost(photo, d, 100)),
    )
    const wednesdayIds = await writeHistory(
      t,
      wednesdays.map((d) => scoredPost(photo, d, 100)),
    )
    // Every post is older than 48 hours at NOW: all 40 count.
    expect(await slotScores(t)).toEqual({ monday9: 1, wednesday12: 1, observations: 40 })

    // Four days after publication Wednesday's posts have 200 interactions: typical post = 150.
    await collect(t, wednesdayIds, wednesdays, 96, 200)
    const after = { monday9: 0.73, wednesday12: 1.27, observations: 40 } // (20 x 2/3 + 5) / 25, (20 x 4/3 + 5) / 25
    expect(await slotScores(t)).toEqual(after)

    // A mature snapshot older than the one held arrives late; an immature one arrives: nothing changes.
    await collect(t, wednesdayIds, wednesdays, 60, 0)
    await collect(t, mondayIds, mondays, 30, 5000)
    expect(await slotScores(t)).toEqual(after)
  })
})
