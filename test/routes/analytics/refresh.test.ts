import { and, eq, inArray } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { accountSync } from '../../../src/db/schema/inbox'
import { targetMetricSnapshots } from '../../../src/db/schema'
import { collectAnalytics } from '../../../src/services/analytics/collect'
import { refreshStreamsOf } from '../../../src/services/analytics/refresh'
import { writeHistory } from '../../support/analytics-history'
import { account, fixedClock } from '../../support/fixtures'
import { waitForRoomInCurrentMinute } from '../../support/minute'
import { createTestApp, type TestApp } from '../../support/test-app'

const T0 = '2026-03-10T10:00:00.000Z'
const HOUR = 3_600_000
const ago = (hours: number) => new Date(Date.parse(T0) - hours * HOUR)

const requestedOf = async (t: TestApp, accountId: string) =>
  Object.fromEntries(
    (await t.deps.db.select().from(accountSync).where(eq(accountSync.accountId, accountId))).map((r) => [
      r.stream,
      r.requestedAt?.toISOString() ?? null,
    ]),
  )
const snapshotCount = async (t: TestApp, ids: string[]) =>
  (await t.deps.db.select().from(targetMetricSnapshots).where(inArray(targetMetricSnapshots.targetId, ids))).length

describe('POST /v1/analytics/refresh', () => {
  it('answers 202 with what will be read, and the next pass reads those targets whatever their schedule', async () => {
    const clock = fixedClock(T0)
    const t = await createTestApp({ clock })
    const photo = await account(t, 'PHOTO_NET')
    // The short-video network gives this service no figures, posts or comments to read.
    const quiet = await account(t, 'SHORTVIDEO_NET')
    // Collected an hour ago (a 3-day-old post waits a day), and 40 days old (never collected again).
    const [recent, old] = await writeHistory(t, [
      { account: photo, publishedAt: ago(72), snapshots: [{ at: ago(1), figures: { likes: 1 } }] },
      { account: photo, publishedAt: ago(40 * 24), snapshots: [{ at: ago(39 * 24), figures: { likes: 1 } }] },
    ])
    await collectAnalytics(t.deps, { workspaceId: t.workspaceId, now: clock.now() })
    expect(await snapshotCount(t, [recent!, old!])).toBe(2)

    const res = await t.call('POST', '/v1/analytics/refresh', { body: {} })
    expect(res.status).toBe(202)
    const body = await res.json()
    expect(body).toEqual({
      requestedAt: T0,
      accounts: [{ accountId: photo.id, platform: 'PHOTO_NET', streams: refreshStreamsOf('PHOTO_NET') }],
      skipped: [
        { accountId: quiet.id, platform: 'SHORTVIDEO_NET', reason: expect.stringContaining('reports no figures') },
      ],
    })
    expect(body.accounts[0].streams).toContain('metrics')
    expect((await requestedOf(t, photo.id)).metrics).toBe(T0)
    expect(await requestedOf(t, quiet.id)).toEqual({})
    const during = await (await t.call('GET', '/v1/analytics')).json()
    expect(during.refreshing).toBe(true)
    expect(during.accounts.find((a: any) => a.accountId === photo.id).refreshing).toBe(true)

    clock.set('2026-03-10T10:01:00.000Z')
    const report = await collectAnalytics(t.deps, { workspaceId: t.workspaceId, now: clock.now() })
    expect(report).toMatchObject({ accounts: 1, targetSnapshots: 2, failedAccounts: 0 })
    expect(await snapshotCount(t, [recent!, old!])).toBe(4)
    expect((await requestedOf(t, photo.id)).metrics).toBeNull()
    const [row] = await t.deps.db
      .select()
      .from(accountSync)
      .where(and(eq(accountSync.accountId, photo.id), eq(accountSync.stream, 'metrics')))
    expect(row!.lastSuccessAt?.toISOString()).toBe('2026-03-10T10:01:00.000Z')
    // Nothing else is due: the next pass reads nothing.
    expect(await collectAnalytics(t.deps, { workspaceId: t.workspaceId, now: clock.now() })).toMatchObject({
      targetSnapshots: 0,
    })
    if (!body.accounts[0].streams.some((s: string) => s !== 'metrics')) {
      expect((await (await t.call('GET', '/v1/analytics')).json()).refreshing).toBe(false)
    }
  })

  it("refreshes one account, and answers 404 for another workspace's account", async () => {
    const t = await createTestApp({ clock: fixedClock(T0) })
    const photo = await account(t, 'PHOTO_NET')
    const micro = await account(t, 'MICROBLOG_NET')
    const res = await t.call('POST', '/v1/analytics/refresh', { body: { accountId: micro.id } })
    expect(res.status).toBe(202)
    expect((await res.json()).accounts.map((a: any) => a.accountId)).toEqual([micro.id])
    expect(await requestedOf(t, photo.id)).toEqual({})

    const other = await createTestApp()
    const theirs = await account(other, 'PHOTO_NET')
    const refused = await t.call('POST', '/v1/analytics/refresh', { body: { accountId: theirs.id } })
    expect(refused.status).toBe(404)
    expect((await refused.json()).error.code).toBe('not_found')
    expect(await requestedOf(other, theirs.id)).toEqual({})
    const bad = await t.call('POST', '/v1/analytics/refresh', { body: { accountId: 5 } })
    expect(bad.status).toBe(400)
  })

  it('has its own rate limit of 6 a minute', async () => {
    await waitForRoomInCurrentMinute(5_000, { onlyWithRedis: true })
    const t = await createTestApp()
    const statuses: number[] = []
    for (let i = 0; i < 7; i++) statuses.push((await t.call('POST', '/v1/analytics/refresh')).status)
    expect(statuses.slice(0, 6)).toEqual([202, 202, 202, 202, 202, 202])
    const refused = await t.call('POST', '/v1/analytics/refresh')
    expect([statuses[6], refused.status]).toEqual([429, 429])
    expect((await refused.json()).error.code).toBe('rate_limited')
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/)
    expect((await t.call('GET', '/v1/analytics')).status).toBe(200)
  })
})
