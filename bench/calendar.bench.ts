import { mkdtempSync, rmSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { appOptions, createApp } from '../src/app'
import { parseNodeConfig } from '../src/config'
import type { PlatformId } from '../src/domain/vocabulary'
import { createMemoryRateLimiter } from '../src/infra/ratelimit/memory'
import { nodeClientIp } from '../src/runtime/client-ip'
import { openNodeRuntime } from '../src/runtime/node-deps'
import { addSandboxAccount } from '../src/services/accounts/accounts'
import { addMember } from '../src/services/people/memberships'
import { calendarGridPosts } from '../src/services/posts/calendar'
import { startSession } from '../src/services/people/sessions'
import { createUser } from '../src/services/people/users'
import { createWorkspace } from '../src/services/workspace/workspaces'
import { calendarDays } from '../src/dashboard/pages/zoned-time'
import { type Benchmark, percentile, round } from './types'

const MONTH_POSTS = 1_000
/** Posts in the months before it, which the month's read must skip. */
const OTHER_POSTS = 4_000
const TIMEZONE = 'America/New_York'
const PLATFORMS: PlatformId[] = ['PHOTO_NET', 'MICROBLOG_NET', 'PROFESSIONAL_NET', 'FEDERATED_NET']
/** A month in the future (so its posts are scheduled), its first day, and a month with no post. */
const YEAR = new Date().getUTCFullYear() + 1
const MONTH = `${YEAR}-03`
const EMPTY_MONTH = `${YEAR + 1}-07`

/**
 * Runs the functions in turn (a, b, c, a, ...) after `warmup` rounds; sorted wall-clock and CPU
 * durations of each, in milliseconds. The CPU time (this process's, where PGlite runs) is the
 * work itself, which a machine shared with other busy processes stretches far less than the wall clock.
 */
async function timeWithCpu(n: number, fns: Array<() => Promise<unknown>>, warmup = 10) {
  for (let i = 0; i < warmup; i++) for (const fn of fns) await fn()
  const wall = fns.map(() => [] as number[])
  const cpu = fns.map(() => [] as number[])
  for (let i = 0; i < n; i++) {
    for (const [k, fn] of fns.entries()) {
      const t = performance.now()
      const c = process.cpuUsage()
      await fn()
      const used = process.cpuUsage(c)
      wall[k]!.push(performance.now() - t)
      cpu[k]!.push((used.user + used.system) / 1000)
    }
  }
  const sorted = (lists: number[][]) => lists.map((l) => l.sort((a, b) => a - b)) as [number[], number[], number[]]
  return [sorted(wall), sorted(cpu)] as const
}

/**
 * GET /app/w/{id}/calendar?view=month over a month holding 1,000 posts (each with one or two
 * targets, some published, some failed) among 5,000, signed in as a member, on the embedded
 * database; the baseline is the same page for a month without posts, measured in the same run.
 */
export const calendarBenchmark: Benchmark = {
  name: 'calendar',
  description: `month calendar page with ${MONTH_POSTS.toLocaleString('en')} posts (of ${(MONTH_POSTS + OTHER_POSTS).toLocaleString('en')}) vs an empty month (PGlite)`,
  async run() {
    const dir = mkdtempSync(join(tmpdir(), 'sps-bench-calendar-'))
    const runtime = await openNodeRuntime(parseNodeConfig({ ...process.env, DATA_DIR: dir, LOG_LEVEL: 'silent' }), {
      rateLimiter: createMemoryRateLimiter({ rules: { default: { limit: 1_000_000, windowSec: 60 } } }),
    })
    try {
      const { deps } = runtime
      const ws = await createWorkspace(deps.db, { name: 'bench', planId: 'agency', timezone: TIMEZONE })
      const accounts = []
      for (const platform of PLATFORMS)
        accounts.push(
          await addSandboxAccount(deps.db, deps.cipher, { workspaceId: ws.id, platform, username: platform }),
        )
      const user = await createUser(deps, { email: 'bench@example.com', name: 'Bench', password: 'brisk otter mural' })
      await deps.db.transaction((tx) => addMember(tx, ws.id, user.id, 'member'))
      const session = await startSession(deps.db, user.id, deps.clock.now())

      const seedStart = performance.now()
      const accountArray = sql.raw(`array['${accounts.map((a) => a.id).join("','")}']`)
      const platformArray = sql.raw(`array['${accounts.map((a) => a.platform).join("','")}']`)
      // The month's posts every 44 minutes from its first day; the others every 10 hours back from it.
      await deps.db.execute(sql`insert into posts (id, workspace_id, status, type, caption, media_ids, scheduled_at, published_at, created_at, updated_at)
        select 'post_cal_' || g, ${ws.id},
          case when g % 10 = 0 then 'PUBLISHED' when g % 37 = 0 then 'FAILED' else 'SCHEDULED' end, 'IMAGE',
          'Seeded post number ' || g || ': a caption long enough to be cut on the calendar, with a link and #tags',
          '[]'::jsonb, at, case when g % 10 = 0 then at end, now(), now()
        from generate_series(1, ${MONTH_POSTS + OTHER_POSTS}) g
        cross join lateral (select case when g <= ${MONTH_POSTS}
          then ${`${MONTH}-01T05:00:00Z`}::timestamptz + (g * 44 || ' minutes')::interval
          else ${`${MONTH}-01T00:00:00Z`}::timestamptz - (g * 10 || ' hours')::interval end as at) t`)
      await deps.db.execute(sql`insert into targets (id, post_id, workspace_id, account_id, platform, position, status)
        select 'tgt_cal_' || g || '_' || k, 'post_cal_' || g, ${ws.id}, (${accountArray})[1 + (g + k) % 4],
          (${platformArray})[1 + (g + k) % 4], k,
          case when g % 10 = 0 then 'PUBLISHED' when g % 37 = 0 then 'FAILED' else 'PENDING' end
        from generate_series(1, ${MONTH_POSTS + OTHER_POSTS}) g cross join generate_series(0, 1) k
        where k = 0 or g % 3 = 0`)
      await deps.db.execute(sql`analyze`)
      await deps.db.execute(sql`checkpoint`)
      const seedMs = performance.now() - seedStart

      const app = createApp(appOptions(deps, nodeClientIp(false)))
      const headers = { cookie: `sps_session=${session.token}` }
      let bytes = 0
      const page = (month: string) => async () => {
        const res = await app.request(`/app/w/${ws.id}/calendar?view=month&day=${month}-01`, { headers })
        if (res.status !== 200) throw new Error(`calendar answered ${res.status}`)
        bytes = (await res.text()).length
      }
      const monthFrom = new Date(`${MONTH}-01T05:00:00Z`)
      const query = () =>
        calendarGridPosts(deps.db, {
          workspaceId: ws.id,
          timeZone: TIMEZONE,
          days: calendarDays('month', `${MONTH}-01`, TIMEZONE),
          filter: {},
          slot: 'day',
          perSlot: 3,
        })
      const inMonth = (
        (await deps.db.execute(
          sql`select count(*)::int as n from posts where workspace_id = ${ws.id} and coalesce(published_at, scheduled_at) >= ${monthFrom.toISOString()}::timestamptz and coalesce(published_at, scheduled_at) < ${new Date(monthFrom.getTime() + 31 * 86_400_000).toISOString()}::timestamptz`,
        )) as unknown as { rows: Array<{ n: number }> }
      ).rows[0]?.n
      const [[full, empty, read], [fullCpu, emptyCpu, readCpu]] = await timeWithCpu(60, [
        page(MONTH),
        page(EMPTY_MONTH),
        query,
      ])
      await page(MONTH)()
      const fullBytes = bytes
      const row = (what: string, d: number[], cpu: number[]): Record<string, string | number> => ({
        what,
        runs: d.length,
        p50_ms: round(percentile(d, 50)),
        p95_ms: round(percentile(d, 95)),
        max_ms: round(d.at(-1)!),
        cpu_p50_ms: round(percentile(cpu, 50)),
        cpu_p95_ms: round(percentile(cpu, 95)),
      })
      return [
        { what: 'seed', posts: MONTH_POSTS + OTHER_POSTS, in_month: inMonth ?? 0, ms: round(seedMs, 0) },
        row('baseline: month page without posts', empty, emptyCpu),
        {
          ...row(`month page with ${MONTH_POSTS} posts (budget p95 <= 50 ms)`, full, fullCpu),
          html_kb: round(fullBytes / 1024, 1),
        },
        row('its read alone (calendarGridPosts, one statement)', read, readCpu),
        {
          what: 'ratio full / empty month (p50; p95)',
          p50: round(percentile(full, 50) / percentile(empty, 50), 2),
          p95: round(percentile(full, 95) / percentile(empty, 95), 2),
        },
        { what: 'load average (1 min) at the end', load: round(loadavg()[0]!, 1), cores: cpus().length },
      ]
    } finally {
      await runtime.close()
      rmSync(dir, { recursive: true, force: true })
    }
  },
}
