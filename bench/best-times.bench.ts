import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { appOptions, createApp } from '../src/app'
import { nodeClientIp } from '../src/runtime/client-ip'
import { parseNodeConfig } from '../src/config'
import { createMemoryRateLimiter } from '../src/infra/ratelimit/memory'
import type { PlatformId } from '../src/domain/vocabulary'
import { openNodeRuntime } from '../src/runtime/node-deps'
import { addSandboxAccount } from '../src/services/accounts/accounts'
import { getBestTimes, LOOKBACK_DAYS, MATURE_AFTER_HOURS } from '../src/services/analytics/best-times'
import { buildReport, type Observation } from '../src/services/analytics/best-times-stats'
import { COLLECTION_SCHEDULE, engagementOf, reportsEngagement } from '../src/services/analytics/engagement'
import type { Db } from '../src/db/types'
import { PLATFORM_IDS } from '../src/domain/vocabulary'
import { createToken } from '../src/services/tokens'
import { createWorkspace } from '../src/services/workspace/workspaces'
import { percentile, round, timeInterleaved, timeMany, type Benchmark } from './types'

const POSTS = 10_000
const PLATFORMS: PlatformId[] = ['PHOTO_NET', 'MICROBLOG_NET', 'SOCIALGRAPH_NET', 'VIDEOSHARE_NET']

/** The collection schedule's snapshot ages, in hours: every snapshot a 30-day-old post has. */
function snapshotAges(): number[] {
  const ages: number[] = []
  let from = 0
  for (const step of COLLECTION_SCHEDULE) {
    for (let age = from + step.everyHours; age <= step.untilAgeHours; age += step.everyHours) ages.push(age)
    from = step.untilAgeHours
  }
  return ages
}

type HistoryRow = {
  account_id: string
  platform: PlatformId
  weekday: number
  hour: number
  likes: number | null
  comments: number | null
  shares: number | null
  saves: number | null
}

/**
 * The baseline: the report as it was computed before the mature figures were kept on each target,
 * every post's latest mature snapshot found in the snapshot history (one index probe per post) and
 * every post handed to the statistics. Same answer, measured in the same run.
 */
async function bestTimesFromSnapshots(db: Db, workspaceId: string, timezone: string, now: Date) {
  const local = sql`(t.published_at at time zone ${timezone})`
  const res = (await db.execute(sql`select t.account_id, t.platform, extract(dow from ${local})::int as weekday,
      extract(hour from ${local})::int as hour, m.likes, m.comments, m.shares, m.saves
    from targets t left join lateral (
      select s.likes, s.comments, s.shares, s.saves from target_metric_snapshots s
      where s.target_id = t.id and s.collected_at >= t.published_at + ${sql.raw(`interval '${MATURE_AFTER_HOURS} hours'`)}
      order by s.collected_at desc limit 1) m on true
    where t.workspace_id = ${workspaceId} and t.status = 'PUBLISHED'
      and t.published_at >= ${new Date(now.getTime() - LOOKBACK_DAYS * 86_400_000).toISOString()}::timestamptz
      and t.published_at <= ${new Date(now.getTime() - MATURE_AFTER_HOURS * 3_600_000).toISOString()}::timestamptz`)) as unknown as {
    rows: HistoryRow[]
  }
  const by = new Map<PlatformId, Observation[]>()
  for (const r of res.rows) {
    const list = by.get(r.platform) ?? []
    list.push({ accountId: r.account_id, weekday: r.weekday, hour: r.hour, engagement: engagementOf(r) })
    by.set(r.platform, list)
  }
  const platforms = PLATFORM_IDS.filter((p) => by.has(p))
  const reporting = platforms.filter(reportsEngagement)
  return {
    rows: res.rows.length,
    overall: buildReport(
      timezone,
      reporting.flatMap((p) => by.get(p)!),
      true,
    ),
    byPlatform: platforms.map((platform) => ({
      platform,
      report: buildReport(timezone, by.get(platform)!, reportsEngagement(platform)),
    })),
  }
}

/**
 * GET /v1/best-times over 10,000 published posts (four accounts, Europe/Berlin), each with every
 * metric snapshot the collection schedule takes (about 33 per post), on the embedded database.
 */
export const bestTimesBenchmark: Benchmark = {
  name: 'best-times',
  description: `GET /v1/best-times over ${POSTS.toLocaleString('en')} published posts with their full snapshot history (PGlite)`,
  async run() {
    const dir = mkdtempSync(join(tmpdir(), 'sps-bench-best-times-'))
    // Measure the work, not the limiter's refusals: one client sends every request here.
    const runtime = await openNodeRuntime(parseNodeConfig({ ...process.env, DATA_DIR: dir, LOG_LEVEL: 'silent' }), {
      rateLimiter: createMemoryRateLimiter({ rules: { default: { limit: 1_000_000, windowSec: 60 } } }),
    })
    try {
      const { deps } = runtime
      const ws = await createWorkspace(deps.db, { name: 'bench', planId: 'agency', timezone: 'Europe/Berlin' })
      const { token } = await createToken(deps.db, ws.id, 'bench')
      const accounts = []
      for (const platform of PLATFORMS)
        accounts.push(
          await addSandboxAccount(deps.db, deps.cipher, { workspaceId: ws.id, platform, username: platform }),
        )
      const accountArray = sql.raw(`array['${accounts.map((a) => a.id).join("','")}']`)
      const platformArray = sql.raw(`array['${accounts.map((a) => a.platform).join("','")}']`)
      const ages = sql.raw(`array[${snapshotAges().join(',')}]`)

      const seedStart = performance.now()
      // One post every 25 minutes going back ~174 days from two days ago.
      await deps.db.execute(sql`insert into posts (id, workspace_id, status, type, caption, media_ids, published_at, created_at, updated_at)
        select 'post_bt_' || g, ${ws.id}, 'PUBLISHED', 'IMAGE', 'Seeded ' || g, '[]'::jsonb, now() - interval '2 days' - (g * 25 || ' minutes')::interval, now(), now()
        from generate_series(1, ${POSTS}) g`)
      await deps.db.execute(sql`insert into targets (id, post_id, workspace_id, account_id, platform, position, status, platform_post_id, published_at)
        select 'tgt_bt_' || g, 'post_bt_' || g, ${ws.id}, (${accountArray})[1 + g % 4], (${platformArray})[1 + g % 4], 0, 'PUBLISHED', 'net_' || g, p.published_at
        from generate_series(1, ${POSTS}) g join posts p on p.id = 'post_bt_' || g`)
      // Engagement grows with age; posts at 18:00 local earn twice as much; accounts differ tenfold in size.
      await deps.db.execute(sql`insert into target_metric_snapshots (id, target_id, collected_at, likes, comments, shares, views, saves)
        select 'ms_bt_' || g || '_' || a, 'tgt_bt_' || g, t.published_at + (a || ' hours')::interval,
               f.e * 8 / 10, f.e / 10, f.e / 20, f.e * 20, f.e / 20
        from generate_series(1, ${POSTS}) g
        join targets t on t.id = 'tgt_bt_' || g
        cross join unnest(${ages}) a
        cross join lateral (select ((10 ^ (g % 4)) * (40 + g * 7 % 40) * least(1, a / 48.0)
               * case when extract(hour from t.published_at at time zone 'Europe/Berlin') = 18 then 2 else 1 end)::int as e) f
        where t.published_at + (a || ' hours')::interval <= now()`)
      await deps.db.execute(sql`analyze`)
      // The seed is a bulk load: written to the data files before timing, as a running server's would have been.
      await deps.db.execute(sql`checkpoint`)
      const seedMs = performance.now() - seedStart
      const counted = (await deps.db.execute(
        sql`select count(*)::int as n from target_metric_snapshots`,
      )) as unknown as { rows: Array<{ n: number }> }
      const snapshots = counted.rows[0]?.n ?? 0

      const now = new Date()
      const ours = await getBestTimes(deps.db, ws.id, now)
      const { rows: historyRows, ...theirs } = await bestTimesFromSnapshots(deps.db, ws.id, 'Europe/Berlin', now)
      const sameAnswer = JSON.stringify(ours) === JSON.stringify(theirs)
      if (!sameAnswer) throw new Error('best times from the mature figures differ from the snapshot history')
      const summaryRows = (
        (await deps.db.execute(sql`select count(*)::int as n from (select 1 from targets
          where workspace_id = ${ws.id} and status = 'PUBLISHED' group by grouping sets ((platform, account_id,
          extract(dow from (published_at at time zone 'Europe/Berlin')), extract(hour from (published_at at time zone 'Europe/Berlin'))),
          (platform, account_id), (platform), ())) g`)) as unknown as { rows: Array<{ n: number }> }
      ).rows[0]?.n
      const app = createApp(appOptions(deps, nodeClientIp(false)))
      const headers = { authorization: `Bearer ${token}` }
      let top = ''
      const viaHttp = async () => {
        const res = await app.request('/v1/best-times', { headers })
        if (res.status !== 200) throw new Error(`best-times answered ${res.status}: ${await res.text()}`)
        const body = (await res.json()) as {
          overall: { observations: number; slots: Array<{ weekday: number; minutes: number; score: number }> }
        }
        const best = body.overall.slots[0]
        top = best
          ? `weekday ${best.weekday} ${best.minutes / 60}:00 score ${best.score} (${body.overall.observations} obs)`
          : 'none'
      }
      // The service and the route in turn, run by run (the same moments of the machine); the baseline after
      // them, since its garbage (10,000 rows) would be collected during whichever ran next.
      const [service, http] = (await timeInterleaved(40, [() => getBestTimes(deps.db, ws.id, now), viaHttp], 5)) as [
        number[],
        number[],
      ]
      const baseline = await timeMany(20, () => bestTimesFromSnapshots(deps.db, ws.id, 'Europe/Berlin', now), 3)
      const row = (what: string, d: number[]): Record<string, string | number> => ({
        what,
        runs: d.length,
        p50_ms: round(percentile(d, 50)),
        p95_ms: round(percentile(d, 95)),
        max_ms: round(d.at(-1)!),
      })
      const rows: Array<Record<string, string | number>> = [
        { what: 'seed', posts: POSTS, snapshots, ms: round(seedMs, 0) },
        { ...row('baseline: report from the snapshot history', baseline), rows_read: historyRows },
        { ...row('getBestTimes (service)', service), rows_read: summaryRows ?? 0 },
        {
          what: 'ratio baseline / service (p50)',
          speedup: round(percentile(baseline, 50) / percentile(service, 50), 1),
        },
        { ...row('GET /v1/best-times', http), top },
      ]
      return rows
    } finally {
      await runtime.close()
      rmSync(dir, { recursive: true, force: true })
    }
  },
}
