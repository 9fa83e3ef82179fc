import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eq, inArray } from 'drizzle-orm'
import { afterAll, describe, expect, it } from 'vitest'
import { followerSnapshots, targetMetricSnapshots } from '../../../src/db/schema'
import type { NetworkAdapter } from '../../../src/networks/adapter'
import type { NetworkRegistry } from '../../../src/networks/registry'
import { sandboxFollowers, sandboxInsights } from '../../../src/networks/sandbox/insights'
import { collectAnalytics } from '../../../src/services/analytics/collect'
import { SCHEDULED_JOBS } from '../../../src/services/scheduled-jobs'
import { writeHistory } from '../../support/analytics-history'
import { account, fixedClock } from '../../support/fixtures'
import { databaseEnv, runCli } from '../../support/processes'
import { createTestApp, type TestApp } from '../../support/test-app'

const HOUR = 3_600_000
const T0 = '2026-03-10T10:00:00.000Z'
const ago = (hours: number, from = T0) => new Date(new Date(from).getTime() - hours * HOUR)

const snapshotsOf = (t: TestApp, targetIds: string[]) =>
  t.deps.db.select().from(targetMetricSnapshots).where(inArray(targetMetricSnapshots.targetId, targetIds))
const followersOf = (t: TestApp, accountId: string) =>
  t.deps.db.select().from(followerSnapshots).where(eq(followerSnapshots.accountId, accountId))

describe('analytics collection', () => {
  it('collects followers once a day and target metrics on a thinning schedule; a network that reports nothing stores null, never 0', async () => {
    const clock = fixedClock(T0)
    const t = await createTestApp({ clock })
    const photo = await account(t, 'PHOTO_NET')
    const chat = await account(t, 'CHAT_NET')
    const messaging = await account(t, 'MESSAGING_NET')
    const [fresh, threeDays, tenDays, old, chatPost] = await writeHistory(t, [
      { account: photo, publishedAt: ago(2) },
      { account: photo, publishedAt: ago(72) },
      { account: photo, publishedAt: ago(240) },
      { account: photo, publishedAt: ago(40 * 24) },
      { account: chat, publishedAt: ago(2) },
    ])
    const collect = () => collectAnalytics(t.deps, { workspaceId: t.workspaceId, now: clock.now() })

    expect(await collect()).toEqual({ accounts: 3, followerSnapshots: 3, targetSnapshots: 4, failedAccounts: 0 })
    expect((await followersOf(t, photo.id))[0]).toMatchObject({
      day: '2026-03-10',
      followers: sandboxFollowers(photo.id, new Date(T0)),
    })
    expect((await followersOf(t, chat.id))[0]).toMatchObject({ day: '2026-03-10', followers: null })
    expect((await followersOf(t, messaging.id))[0]!.followers).toBeGreaterThan(0)

    const first = await snapshotsOf(t, [fresh!, threeDays!, tenDays!, old!, chatPost!])
    expect(first.map((s) => s.targetId).sort()).toEqual([fresh!, threeDays!, tenDays!, chatPost!].sort())
    const expected = sandboxInsights('PHOTO_NET', {
      accountId: photo.id,
      connection: 'SANDBOX',
      credentials: {},
      posts: [{ targetId: threeDays!, platformPostId: `net_${threeDays}`, publishedAt: ago(72) }],
      fetch,
      baseUrl: '',
      now: new Date(T0),
    }).posts[0]!
    expect(first.find((s) => s.targetId === threeDays)).toMatchObject(expected)
    expect(expected.likes).toBeGreaterThan(0)
    expect(first.find((s) => s.targetId === chatPost)).toMatchObject({
      likes: null,
      comments: null,
      shares: null,
      views: null,
      saves: null,
    })

    // Same minute: nothing is due.
    expect(await collect()).toEqual({ accounts: 0, followerSnapshots: 0, targetSnapshots: 0, failedAccounts: 0 })
    // An hour later: only the posts in their first day (hourly); followers wait for the next day.
    clock.set('2026-03-10T11:00:00.000Z')
    expect(await collect()).toMatchObject({ followerSnapshots: 0, targetSnapshots: 2 })
    // The next day: followers again; the day-old posts and the 3-day-old one (daily); not the 10-day-old one (weekly).
    clock.set('2026-03-11T11:00:00.000Z')
    expect(await collect()).toMatchObject({ followerSnapshots: 3, targetSnapshots: 3 })
    expect((await snapshotsOf(t, [tenDays!])).length).toBe(1)
    expect((await followersOf(t, photo.id)).map((s) => s.day).sort()).toEqual(['2026-03-10', '2026-03-11'])
    // A week after its last collection, the 10-day-old post is read again; the 40-day-old one never.
    clock.set('2026-03-17T10:00:00.000Z')
    await collect()
    expect((await snapshotsOf(t, [tenDays!])).length).toBe(2)
    expect(await snapshotsOf(t, [old!])).toEqual([])
  })

  it('logs and skips an account whose network fails (ids and error class only), and keeps nonsense figures out', async () => {
    const lines: string[] = []
    const t = await createTestApp({ clock: fixedClock(T0), logLines: lines })
    const photo = await account(t, 'PHOTO_NET')
    const micro = await account(t, 'MICROBLOG_NET')
    const graph = await account(t, 'SOCIALGRAPH_NET')
    const [graphPost, photoPost] = await writeHistory(t, [
      { account: graph, publishedAt: ago(5) },
      { account: photo, publishedAt: ago(5) },
      { account: micro, publishedAt: ago(5) },
    ])
    const failing: NetworkAdapter = {
      publish: async () => ({ status: 'failed', kind: 'transient', message: 'x' }),
      fetchInsights: async () => {
        throw new TypeError('502 from upstream: {"access_token":"sk_live_SECRET"}')
      },
    }
    const garbage: NetworkAdapter = {
      publish: failing.publish,
      fetchInsights: async (input) => ({
        followers: -4,
        posts: input.posts.map((p) => ({
          targetId: p.targetId,
          likes: Number.NaN,
          comments: '3' as unknown as number,
          shares: 2.4,
          views: -1,
          saves: null,
        })),
      }),
    }
    const real = t.deps.networks
    const networks: NetworkRegistry = {
      ...real,
      adapterFor: (p, c) =>
        p === 'MICROBLOG_NET' ? failing : p === 'SOCIALGRAPH_NET' ? garbage : real.adapterFor(p, c),
    }
    const report = await collectAnalytics({ ...t.deps, networks }, { workspaceId: t.workspaceId, now: new Date(T0) })
    expect(report).toEqual({ accounts: 3, followerSnapshots: 2, targetSnapshots: 2, failedAccounts: 1 })
    expect(await followersOf(t, micro.id)).toEqual([])
    expect((await followersOf(t, photo.id))[0]!.followers).toBeGreaterThan(0)
    expect((await snapshotsOf(t, [photoPost!]))[0]!.likes).toBeGreaterThan(0)
    expect((await followersOf(t, graph.id))[0]!.followers).toBeNull()
    expect((await snapshotsOf(t, [graphPost!]))[0]).toMatchObject({
      likes: null,
      comments: null,
      shares: 2,
      views: null,
      saves: null,
    })

    const failure = lines.map((l) => JSON.parse(l)).find((l) => l.event === 'analytics_collect_failed')
    expect(failure).toMatchObject({ accountId: micro.id, platform: 'MICROBLOG_NET', errorType: 'TypeError' })
    expect(lines.join('\n')).not.toContain('SECRET')
    expect(lines.join('\n')).not.toContain('502 from upstream')
  })

  it('runs as a scheduled job after the publishing sweep', () => {
    expect(SCHEDULED_JOBS.map((j) => j.name).slice(0, 2)).toEqual(['publish_sweep', 'analytics_collect'])
  })
})

describe('GET /v1/analytics', () => {
  it('gives followers now and a 30-day daily series, recent posts with their figures and when they were collected, and nothing of another workspace', async () => {
    const clock = fixedClock(T0)
    const other = await createTestApp({ clock })
    const otherAccount = await account(other, 'PHOTO_NET', 'someone_else')
    await writeHistory(other, [{ account: otherAccount, publishedAt: ago(3) }])

    const t = await createTestApp({ clock, timezone: 'America/New_York' })
    const photo = await account(t, 'PHOTO_NET')
    const chat = await account(t, 'CHAT_NET')
    const [photoPost, chatPost] = await writeHistory(t, [
      { account: photo, publishedAt: ago(30) },
      { account: chat, publishedAt: ago(20) },
      { account: photo, publishedAt: ago(31 * 24) },
    ])
    const before = await (await t.call('GET', '/v1/analytics')).json()
    expect(before.accounts.find((a: any) => a.accountId === photo.id).followers).toEqual({
      value: null,
      collectedAt: null,
    })
    expect(before.recentPosts.find((p: any) => p.targetId === photoPost).collectedAt).toBeNull()

    await collectAnalytics(t.deps, { workspaceId: t.workspaceId, now: clock.now() })
    clock.set('2026-03-11T10:30:00.000Z')
    await collectAnalytics(t.deps, { workspaceId: t.workspaceId, now: clock.now() })
    expect(await followersOf(other, otherAccount.id)).toEqual([])

    const res = await t.call('GET', '/v1/analytics')
    expect(res.status).toBe(200)
    const body = await res.json()
    expect(body).toMatchObject({ timezone: 'America/New_York', generatedAt: '2026-03-11T10:30:00.000Z' })
    expect(body.accounts.map((a: any) => a.accountId)).toEqual([photo.id, chat.id])

    const p = body.accounts[0]
    expect(p).toMatchObject({ platform: 'PHOTO_NET', reports: { followers: true } })
    expect(p.followers).toEqual({
      value: sandboxFollowers(photo.id, new Date('2026-03-11T10:30:00.000Z')),
      collectedAt: '2026-03-11T10:30:00.000Z',
    })
    expect(p.series).toHaveLength(30)
    expect(p.series[0].day).toBe('2026-02-10')
    // 10:00Z on 10 March is 06:00 (EDT, since 8 March) in New York.
    expect(p.series.slice(-2).map((d: any) => d.day)).toEqual(['2026-03-10', '2026-03-11'])
    expect(p.series.at(-2).followers).toBe(sandboxFollowers(photo.id, new Date(T0)))
    expect(p.series.at(-1).collectedAt).toBe('2026-03-11T10:30:00.000Z')
    expect(p.series.slice(0, -2).every((d: any) => d.followers === null && d.collectedAt === null)).toBe(true)

    const c = body.accounts[1]
    expect(c).toMatchObject({
      platform: 'CHAT_NET',
      reports: { followers: false, postMetrics: [] },
      followers: { value: null, collectedAt: '2026-03-11T10:30:00.000Z' },
    })

    expect(body.recentPosts.map((r: any) => r.targetId)).toEqual([chatPost, photoPost])
    const photoFigures = body.recentPosts[1]
    expect(photoFigures.collectedAt).toBe('2026-03-11T10:30:00.000Z')
    const m = photoFigures.metrics
    expect(m.views).toBeGreaterThan(0)
    expect(photoFigures.engagement).toBe(m.likes + m.comments + m.shares + m.saves)
    expect(body.recentPosts[0]).toMatchObject({
      metrics: { likes: null, comments: null, shares: null, views: null, saves: null },
      engagement: null,
    })
    expect(JSON.stringify(body)).not.toContain(otherAccount.id)
  })
})

describe('npm run cli -- analytics collect', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sps-analytics-cli-'))
  const env = databaseEnv(dataDir)
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

  it('runs one collection pass for a workspace', async () => {
    const ws = await runCli(['workspace', 'create', '--name', 'Stats'], env)
    expect(ws.code, ws.stderr).toBe(0)
    const added = await runCli(
      ['account', 'add', '--workspace', ws.json.id, '--platform', 'MICROBLOG_NET', '--username', 'm', '--sandbox'],
      env,
    )
    expect(added.code, added.stderr).toBe(0)
    const run = await runCli(['analytics', 'collect', '--workspace', ws.json.id], env)
    expect(run.code, run.stderr).toBe(0)
    expect(run.json).toMatchObject({
      workspaceId: ws.json.id,
      accounts: 1,
      followerSnapshots: 1,
      targetSnapshots: 0,
      failedAccounts: 0,
    })
    const missing = await runCli(['analytics', 'collect', '--workspace', 'ws_missing'], env)
    expect(missing.code).toBe(1)
    expect(missing.stderr).toMatch(/no workspace with id ws_missing/)
  }, 180_000) // real processes (tsx, PGlite): minutes on a loaded machine
})
