import { writeFileSync } from 'node:fs'
import { rulesFor } from '../src/domain/rules/index'
import type { PlatformId } from '../src/domain/vocabulary'
import { RATE_LIMIT_RULES } from '../src/infra/ratelimit/types'
import {
  createSession,
  MIX,
  REQUESTS_PER_OP_MEAN,
  runOpenLoop,
  type Sample,
  type Session,
  seedDrafts,
  step,
} from './load-generator'
import { redact, startApiServer, startCpuMeter, startPostgresDatabase } from './load-server'
import { percentile, round, type Benchmark } from './types'

/** Knobs, from the environment (`LOAD_RATE=100 npm run bench -- load`). */
const env = process.env
const num = (key: string, fallback: number) => (env[key] ? Number(env[key]) : fallback)
const RATE = num('LOAD_RATE', 200)
const SECONDS = num('LOAD_SECONDS', 60)
const WARMUP_SECONDS = num('LOAD_WARMUP', 5)
const CLIENTS = num('LOAD_CLIENTS', 200)
const TIMEOUT_MS = num('LOAD_TIMEOUT_MS', 10_000)
const SEED_POSTS = num('LOAD_SEED_POSTS', 200)
const DATABASES = (env.LOAD_DATABASES ?? 'postgres,pglite').split(',').map((d) => d.trim())
const ADMIN_URL = env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
const P99_TARGET_MS = 250

type Row = Record<string, string | number>

/** Errors by kind, `http_429×3, timeout×1`, or `0`. */
function errorKinds(samples: Sample[]): string {
  const counts = new Map<string, number>()
  for (const s of samples) if (s.error) counts.set(s.error, (counts.get(s.error) ?? 0) + 1)
  return counts.size === 0 ? '0' : [...counts].map(([k, n]) => `${k}×${n}`).join(', ')
}

function latencies(samples: Sample[]) {
  const ms = samples.map((s) => s.ms).sort((a, b) => a - b)
  const p = (q: number) => round(percentile(ms, q), 1)
  return { p50: p(50), p95: p(95), p99: p(99), max: round(ms[ms.length - 1] ?? Number.NaN, 1) }
}

/** Per request kind, for finding where the time goes. */
function breakdown(samples: Sample[]): Row[] {
  const steps = [...new Set(samples.map((s) => s.step))].sort()
  return steps.map((name) => {
    const mine = samples.filter((s) => s.step === name)
    const l = latencies(mine)
    return {
      request: name,
      count: mine.length,
      'p50 ms': l.p50,
      'p99 ms': l.p99,
      'max ms': l.max,
      errors: errorKinds(mine),
    }
  })
}

/**
 * Every post of the workspace, through the paged list (100 a page), spread over the virtual
 * clients like the load. Waits (bounded) for the publish-now posts to settle first.
 */
async function listAllPosts(s: Session): Promise<Map<string, string>> {
  const nowIds = [...s.created].filter(([, op]) => op === 'now').map(([id]) => id)
  let seen = new Map<string, string>()
  for (let attempt = 0; attempt < 5; attempt++) {
    seen = new Map()
    for (let page = 1; ; page++) {
      const client = s.clients[s.nextClient++ % s.clients.length]!
      const url = `${s.baseUrl}/v1/posts?page=${page}&limit=100`
      const body = await step(s, 'verify', client, performance.now(), 'GET', url)
      if (!body) throw new Error(`verification: GET ${url} failed (${s.samples[s.samples.length - 1]?.error})`)
      for (const post of body.data as Array<{ id: string; status: string }>) seen.set(post.id, post.status)
      if (!body.hasMore) break
    }
    const unsettled = nowIds.filter((id) => !['PUBLISHED', 'FAILED'].includes(seen.get(id) ?? ''))
    if (unsettled.length === 0) break
    await new Promise((r) => setTimeout(r, 3000))
  }
  return seen
}

async function runOn(database: string): Promise<{ row: Row; steps: Row[] }> {
  const pg = database === 'postgres' ? await startPostgresDatabase(ADMIN_URL) : null
  let server: Awaited<ReturnType<typeof startApiServer>> | null = null
  let session: Session | null = null
  try {
    server = await startApiServer({
      ...(pg ? { databaseUrl: pg.url, wsProxy: pg.wsProxy } : {}),
      ...(env.LOAD_CPU_PROF ? { cpuProfDir: env.LOAD_CPU_PROF } : {}),
    })
    if (server.database !== (pg ? 'postgres' : 'pglite'))
      throw new Error(`the server runs on ${server.database}, expected ${database}`)
    const s = createSession({
      baseUrl: server.baseUrl,
      token: server.token,
      accountIds: [],
      clients: CLIENTS,
      timeoutMs: TIMEOUT_MS,
    })
    session = s
    const accounts = await step(s, 'setup', s.clients[0]!, performance.now(), 'GET', `${server.baseUrl}/v1/accounts`)
    if (!accounts) throw new Error(`GET /v1/accounts failed: ${s.samples[0]?.error}`)
    s.accountIds = (accounts as Array<{ id: string; platform: PlatformId; connection: string }>)
      .filter((a) => a.connection === 'SANDBOX' && rulesFor(a.platform).media.allowsTextOnly)
      .map((a) => a.id)
    if (s.accountIds.length === 0) throw new Error('the demo workspace has no SANDBOX account taking text posts')

    await seedDrafts(s, SEED_POSTS)
    if (WARMUP_SECONDS > 0) await runOpenLoop(s, RATE, WARMUP_SECONDS)
    const before = s.samples
    s.samples = []
    // Where the machine's CPU goes during the run: the server, the proxy and PostgreSQL's backends of this database.
    const readCpu = startCpuMeter({
      server: [server.pid],
      ...(pg ? { proxy: [pg.proxyPid], 'postgres backends': await pg.backendPids() } : {}),
    })
    const run = await runOpenLoop(s, RATE, SECONDS)
    const cpu = readCpu()
    const measured = s.samples
    s.samples = []
    // For a timeline: every request of the run, times relative to the schedule's start.
    if (env.LOAD_SAMPLES_DIR) {
      const rows = measured.map((x) => ({ ...x, endedAt: round(x.endedAt - run.start, 1), ms: round(x.ms, 1) }))
      writeFileSync(`${env.LOAD_SAMPLES_DIR}/load-${database}.json`, JSON.stringify(rows))
    }

    const seen = await listAllPosts(s)
    const created = [...s.created.keys()]
    const found = created.filter((id) => seen.has(id)).length
    const now = [...s.created].filter(([, op]) => op === 'now').map(([id]) => seen.get(id) ?? 'missing')
    const nowStatuses = [...new Set(now)].map((st) => `${st}×${now.filter((x) => x === st).length}`).join(', ')

    const ok = measured.filter((x) => !x.error)
    const lastEnd = Math.max(...measured.map((x) => x.endedAt))
    const achieved = ok.length / ((lastEnd - run.start) / 1000)
    const l = latencies(measured)
    const errors = measured.length - ok.length
    const setupErrors = before.filter((x) => x.error)
    const holds = l.p99 < P99_TARGET_MS && errors === 0 && found === created.length && achieved >= RATE * 0.95
    return {
      row: {
        database,
        'target req/s': RATE,
        'achieved req/s': round(achieved, 1),
        requests: measured.length,
        'p50 ms': l.p50,
        'p95 ms': l.p95,
        'p99 ms': l.p99,
        'max ms': l.max,
        errors,
        'errors by kind': errorKinds(measured) + (setupErrors.length ? ` (seed/warm-up: ${errorKinds(before)})` : ''),
        'posts created': created.length,
        'posts found': found,
        'publish-now posts': nowStatuses || '-',
        'resent on closed keep-alive': s.resent,
        'generator lag max ms': round(run.maxLagMs, 1),
        'CPU of a core': cpu,
        'target holds': holds ? 'yes' : 'no',
      },
      steps: breakdown(measured),
    }
  } finally {
    session?.agent.destroy()
    const code = await server?.stop()
    if (env.LOAD_CPU_PROF && server)
      console.log(`  ${database}: server pid ${server.pid} exited ${code}; profile in ${env.LOAD_CPU_PROF}`)
    await pg?.close()
  }
}

/**
 * `npm start` as its own process, once on PostgreSQL (a fresh database behind a local
 * WebSocket-to-TCP proxy, as the Neon driver needs) and once on PGlite, under an open-loop mixed
 * workload from many 127.0.0.x source addresses.
 */
export const loadBenchmark: Benchmark = {
  name: 'load',
  description:
    `npm start under ${RATE} req/s for ${SECONDS} s, open loop, from ${CLIENTS} source addresses; ` +
    `mix ${Object.entries(MIX)
      .map(([op, w]) => `${op} ${w}%`)
      .join(', ')} (an upload is ticket + PUT + register, ` +
    `${round(REQUESTS_PER_OP_MEAN)} requests an operation); ${DATABASES.join(' and ')}`,
  async run() {
    const perIp = (RATE * 60) / CLIENTS
    if (perIp > RATE_LIMIT_RULES.default.limit * 0.8)
      console.warn(`  ${round(perIp)} requests a minute per address is near the per-IP limit: raise LOAD_CLIENTS`)
    const rows: Row[] = []
    for (const database of DATABASES) {
      console.log(
        `\n  ${database}${database === 'postgres' ? ` (${redact(ADMIN_URL)})` : ''}: warm-up, then ${SECONDS} s`,
      )
      try {
        const { row, steps } = await runOn(database)
        console.table(steps)
        rows.push(row)
      } catch (err) {
        console.error(`  ${database}: ${(err as Error).message}`)
        rows.push({
          database,
          'target req/s': RATE,
          'target holds': `not measured: ${(err as Error).message.split('\n')[0]}`,
        })
      }
    }
    const pg = rows.find((r) => r.database === 'postgres')
    if (pg)
      console.log(
        `\n  PostgreSQL target (${RATE} req/s, p99 < ${P99_TARGET_MS} ms, 0 errors, every post found): ` +
          `${pg['target holds'] === 'yes' ? 'HOLDS' : 'MISSED'}`,
      )
    return rows
  },
}
