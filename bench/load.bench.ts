import { randomBytes } from 'node:crypto'
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
import {
  type ApiServer,
  postgresDriver,
  redact,
  startApiServer,
  startCpuMeter,
  startPostgresDatabase,
  startSharedStore,
} from './load-server'
import { percentile, round, type Benchmark } from './types'

/** Knobs, from the environment (`LOAD_RATE=100 npm run bench -- load`). */
const env = process.env
const num = (key: string, fallback: number) => (env[key] ? Number(env[key]) : fallback)
const RATE = num('LOAD_RATE', 200)
const SECONDS = num('LOAD_SECONDS', 60)
const WARMUP_SECONDS = num('LOAD_WARMUP', 5)
// One request a second per address at most, so the per-IP limit (120 a minute) never shapes the load.
const CLIENTS = num('LOAD_CLIENTS', Math.max(200, RATE))
const TIMEOUT_MS = num('LOAD_TIMEOUT_MS', 10_000)
const SEED_POSTS = num('LOAD_SEED_POSTS', 200)
/** `postgres` is node-postgres where the project has it, else the Neon driver (`neon`, through a local proxy). */
const DATABASES = (env.LOAD_DATABASES ?? 'postgres,pglite')
  .split(',')
  .map((d) => d.trim())
  .map((d) => (d === 'postgres' && postgresDriver() === 'neon' ? 'neon' : d))
/** Instances on one PostgreSQL (PGlite always runs one). */
const INSTANCES = (env.LOAD_INSTANCES ?? '1,3').split(',').map(Number)
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

/** The instances of one run: `npm start` N times on one database (the first makes the demo workspace). */
async function startInstances(database: string, instances: number) {
  const postgres = database !== 'pglite'
  const pg = postgres ? await startPostgresDatabase(ADMIN_URL, { proxy: database === 'neon' }) : null
  // Several instances share one media store and one credentials key, as a deployment would.
  const store = postgres
    ? await startSharedStore().catch(async (err) => {
        await pg?.close()
        throw err
      })
    : null
  const servers: ApiServer[] = []
  const stop = async () => {
    await Promise.all(servers.map((server) => server.stop()))
    await store?.stop()
    await pg?.close()
  }
  try {
    const extraEnv = { ...store?.env, ...(postgres ? { CREDENTIALS_KEY: randomBytes(32).toString('base64') } : {}) }
    const options = {
      ...(pg ? { databaseUrl: pg.url, wsProxy: pg.wsProxy } : {}),
      ...(env.LOAD_CPU_PROF ? { cpuProfDir: env.LOAD_CPU_PROF } : {}),
      extraEnv,
    }
    servers.push(await startApiServer(options))
    const more = await Promise.allSettled(
      Array.from({ length: instances - 1 }, () => startApiServer({ ...options, expectToken: false })),
    )
    for (const started of more) if (started.status === 'fulfilled') servers.push(started.value)
    const failed = more.find((started) => started.status === 'rejected')
    if (failed) throw failed.reason
    for (const server of servers)
      if (server.database !== (pg ? 'postgres' : 'pglite'))
        throw new Error(`the server runs on ${server.database}, expected ${database}`)
    return { pg, store, servers, stop }
  } catch (err) {
    await stop()
    throw err
  }
}

async function runOn(database: string, instances: number): Promise<{ row: Row; steps: Row[] }> {
  const { pg, store, servers, stop } = await startInstances(database, instances)
  const server = servers[0]!
  let session: Session | null = null
  try {
    const s = createSession({
      baseUrls: servers.map((x) => x.baseUrl),
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
    // Where the machine's CPU goes during the run: the servers, the proxy, the store and PostgreSQL's backends of this database.
    const readCpu = startCpuMeter({
      [instances > 1 ? `${instances} servers` : 'server']: servers.map((x) => x.pid),
      ...(pg?.proxyPid ? { proxy: [pg.proxyPid] } : {}),
      ...(store ? { store: [store.pid] } : {}),
      ...(pg ? { 'postgres backends': await pg.backendPids() } : {}),
    })
    const run = await runOpenLoop(s, RATE, SECONDS)
    const cpu = readCpu()
    const measured = s.samples
    s.samples = []
    // For a timeline: every request of the run, times relative to the schedule's start.
    if (env.LOAD_SAMPLES_DIR) {
      const rows = measured.map((x) => ({ ...x, endedAt: round(x.endedAt - run.start, 1), ms: round(x.ms, 1) }))
      writeFileSync(`${env.LOAD_SAMPLES_DIR}/load-${database}-${instances}.json`, JSON.stringify(rows))
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
        instances,
        'target req/s': RATE,
        'achieved req/s': round(achieved, 1),
        requests: measured.length,
        'p50 ms': l.p50,
        'p95 ms': l.p95,
        'p99 ms': l.p99,
        'max ms': l.max,
        // The API's own answers: without the PUT to the media store (S3 or R2 in production, a local store here).
        'p99 API ms': latencies(measured.filter((x) => x.step !== 'upload:put')).p99,
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
    await stop()
    if (env.LOAD_CPU_PROF)
      console.log(`  ${database}: profiles of pids ${servers.map((x) => x.pid)} in ${env.LOAD_CPU_PROF}`)
  }
}

/**
 * `npm start` as its own process(es) on PostgreSQL (a fresh database; node-postgres, or with
 * `neon` the Neon driver behind a local WebSocket-to-TCP proxy), once per count of instances in
 * LOAD_INSTANCES (requests sent to them in turn, as behind a round-robin balancer), and once on
 * PGlite, under an open-loop mixed workload from many 127.0.0.x source addresses.
 */
export const loadBenchmark: Benchmark = {
  name: 'load',
  description:
    `npm start under ${RATE} req/s for ${SECONDS} s, open loop, from ${CLIENTS} source addresses; ` +
    `mix ${Object.entries(MIX)
      .map(([op, w]) => `${op} ${w}%`)
      .join(', ')} (an upload is ticket + PUT + register, ` +
    `${round(REQUESTS_PER_OP_MEAN)} requests an operation); ${DATABASES.join(' and ')}` +
    `; PostgreSQL with ${INSTANCES.join(' and ')} instance(s)`,
  async run() {
    const perIp = (RATE * 60) / CLIENTS
    if (perIp > RATE_LIMIT_RULES.default.limit * 0.8)
      console.warn(`  ${round(perIp)} requests a minute per address is near the per-IP limit: raise LOAD_CLIENTS`)
    const rows: Row[] = []
    const runs = DATABASES.flatMap((database) =>
      database === 'pglite' ? [{ database, instances: 1 }] : INSTANCES.map((instances) => ({ database, instances })),
    )
    for (const { database, instances } of runs) {
      const where = database === 'pglite' ? '' : ` (${redact(ADMIN_URL)}), ${instances} instance(s)`
      console.log(`\n  ${database}${where}: warm-up, then ${SECONDS} s`)
      try {
        const { row, steps } = await runOn(database, instances)
        console.table(steps)
        rows.push(row)
      } catch (err) {
        console.error(`  ${database}: ${(err as Error).message}`)
        rows.push({
          database,
          instances,
          'target req/s': RATE,
          'target holds': `not measured: ${(err as Error).message.split('\n')[0]}`,
        })
      }
    }
    for (const pg of rows.filter((r) => r.database !== 'pglite' && r.instances === 1))
      console.log(
        `\n  PostgreSQL target (${pg.database}, one instance, ${RATE} req/s, p99 < ${P99_TARGET_MS} ms, 0 errors, ` +
          `every post found): ${pg['target holds'] === 'yes' ? 'HOLDS' : 'MISSED'}`,
      )
    // The same run's ratio: N instances against one, on the same database, machine and load.
    for (const one of rows.filter((r) => r.instances === 1 && r.database !== 'pglite'))
      for (const many of rows.filter((r) => r.database === one.database && Number(r.instances) > 1))
        console.log(
          `  ${one.database}, ${many.instances} instances against 1: p50 ${ratio(many['p50 ms'], one['p50 ms'])}, ` +
            `p99 ${ratio(many['p99 ms'], one['p99 ms'])}, achieved req/s ${ratio(many['achieved req/s'], one['achieved req/s'])}`,
        )
    return rows
  },
}

const ratio = (a: unknown, b: unknown) =>
  typeof a === 'number' && typeof b === 'number' && b > 0 ? `${round(a / b, 2)}x` : '-'
