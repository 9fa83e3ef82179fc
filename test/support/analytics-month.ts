/**
 * A month of analytics for the analytics page's tests and screenshots: two accounts with a follower
 * count per day, and one or two published posts a day with their collected figures, written through
 * `writeHistory` (posts, targets, snapshots) and the follower snapshots table.
 */
import { followerSnapshots } from '../../src/db/schema'
import { account } from './fixtures'
import { writeHistory } from './analytics-history'
import type { TestApp } from './test-app'

const DAY = 86_400_000

/** Seeds `days` days ending with `now`'s day (UTC workspace); returns the accounts. */
export async function writeAnalyticsMonth(t: TestApp, now: Date, days = 30) {
  const micro = await account(t, 'MICROBLOG_NET', 'northwind')
  const photo = await account(t, 'PHOTO_NET', 'northwind.photos')
  const start = now.getTime() - (days - 1) * DAY
  const history = []
  for (let d = 0; d < days; d++) {
    const at = new Date(start + d * DAY)
    const day = at.toISOString().slice(0, 10)
    await t.deps.db.insert(followerSnapshots).values([
      { accountId: micro.id, day, followers: 1200 + d * 14 + (d % 3) * 5, collectedAt: at },
      { accountId: photo.id, day, followers: 860 + d * 9 - (d % 4) * 3, collectedAt: at },
    ])
    if (d % 5 === 2) continue // a day without a post
    const published = new Date(at.getTime() - 3 * 3_600_000)
    const base = 10 + ((d * 7) % 23)
    history.push({
      account: micro,
      publishedAt: published,
      snapshots: [{ at, figures: { likes: base, comments: d % 4, shares: d % 3, views: base * 30 } }],
    })
    if (d % 2 === 0)
      history.push({
        account: photo,
        publishedAt: new Date(published.getTime() + 3_600_000),
        snapshots: [{ at, figures: { likes: base * 2, comments: 3, shares: 1, saves: d % 5, views: base * 50 } }],
      })
  }
  await writeHistory(t, history)
  return { micro, photo }
}
