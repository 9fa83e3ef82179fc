import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseNodeConfig } from '../src/config'
import { openNodeRuntime } from '../src/runtime/node-deps'
import { ADAPTER_MS, seedTargets, TARGETS } from './engine.bench'
import { postgresDriver, processCpuMs, psql, spawnNode, startPostgresDatabase } from './load-server'
import { round, type Benchmark } from './types'

/** Instance counts to compare (`BENCH_ENGINE_INSTANCES=1,3`), each on a fresh database of DATABASE_URL. */
const INSTANCES = (process.env.BENCH_ENGINE_INSTANCES ?? '1,3').split(',').map(Number)
/** From seeding to the due time: the instances start meanwhile. */
const LEAD_MS = Number(process.env.BENCH_ENGINE_LEAD_MS ?? 20_000)
const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'

type Rows = Array<Record<string, string | number>>

interface InstanceReport {
  calls: string[]
  enqueued: number
  lateStart: boolean
  doneAt: number
  lastResultAt: number
  cpuMs: number
}

/** Busy and total jiffies of the whole machine (every core), from /proc/stat. */
function machineJiffies(): { busy: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.split(/\s+/).slice(1).map(Number)
  const idle = fields[3]! + fields[4]!
  const total = fields.reduce((a, b) => a + b, 0)
  return { busy: total - idle, total }
}

/** CPU ms of a set of processes that may end meanwhile: each one's last reading counts. */
function cpuTracker() {
  const first = new Map<number, number>()
  const last = new Map<number, number>()
  const read = (pids: number[]) => {
    for (const pid of pids) {
      const ms = processCpuMs(pid)
      if (ms === null) continue
      if (!first.has(pid)) first.set(pid, ms)
      last.set(pid, ms)
    }
  }
  const used = () => [...last].reduce((sum, [pid, ms]) => sum + ms - first.get(pid)!, 0)
  return { read, used }
}

/** The burst on a fresh database with `instances` processes, each running the engine with its own queue. */
async function runInstances(instances: number): Promise<Rows> {
  const driver = postgresDriver()
  const database = await startPostgresDatabase(ADMIN_URL, { proxy: driver === 'neon' })
  const dirs: string[] = []
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'sps-bench-instances-'))
    dirs.push(dir)
    return dir
  }
  const dbEnv = { DATABASE_URL: database.url, ...(database.wsProxy ? { NEON_WS_PROXY: database.wsProxy } : {}) }
  const CREDENTIALS_KEY = randomBytes(32).toString('base64')
  try {
    // Seed with a runtime of this process (it migrates the database), closed before the instances start.
    const seeder = await openNodeRuntime(
      parseNodeConfig({ ...dbEnv, CREDENTIALS_KEY, DATA_DIR: tempDir(), LOG_LEVEL: 'silent', PORT: '0' }),
    )
    const firstDue = Date.now() + LEAD_MS
    try {
      await seedTargets(seeder.deps, { firstDue, offsets: Array.from({ length: TARGETS }, () => 0) })
    } finally {
      await seeder.close()
    }
    const started = await Promise.all(
      Array.from({ length: instances }, (_, i) => {
        const out = join(tempDir(), `instance-${i}.json`)
        const env = {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '',
          NODE_NO_WARNINGS: '1',
          ...dbEnv,
          CREDENTIALS_KEY,
          DATA_DIR: tempDir(),
          BENCH_OUT: out,
          BENCH_FIRST_DUE: String(firstDue),
          BENCH_ADAPTER_MS: String(ADAPTER_MS),
        }
        return spawnNode(['--import', 'tsx', 'bench/engine-instance.ts'], env, /ready\n/).then((p) => ({ p, out }))
      }),
    )
    // CPU from the due time on: the instances, PostgreSQL's backends of this database, the machine.
    while (Date.now() < firstDue) await new Promise((r) => setTimeout(r, 20))
    let backends = await database.backendPids()
    const instanceCpu = cpuTracker()
    const backendCpu = cpuTracker()
    const machineBefore = machineJiffies()
    const pids = [...started.map((s) => s.p.child.pid!), ...(database.proxyPid ? [database.proxyPid] : [])]
    instanceCpu.read(pids)
    backendCpu.read(backends)
    // Pools open connections as they need them: the backends are listed again every second.
    let ticks = 0
    const sampler = setInterval(() => {
      instanceCpu.read(pids)
      backendCpu.read(backends)
      if (++ticks % 4 === 0)
        void database
          .backendPids()
          .then((now) => {
            backends = now
          })
          .catch(() => {})
    }, 250)
    const codes = await Promise.all(started.map((s) => s.p.exited))
    clearInterval(sampler)
    const machineAfter = machineJiffies()
    if (codes.some((code) => code !== 0))
      throw new Error(`an instance exited with ${codes.join(', ')}: ${started.map((s) => s.p.output()).join('\n')}`)
    const reports = started.map((s) => JSON.parse(readFileSync(s.out, 'utf8')) as InstanceReport)
    const byStatus = Object.fromEntries(
      (await psql(database.url, 'select status, count(*) from targets group by status')).map((line) => line.split('|')),
    )
    const counts = new Map<string, number>()
    for (const r of reports) for (const key of r.calls) counts.set(key, (counts.get(key) ?? 0) + 1)
    const duplicates = [...counts.values()].filter((n) => n > 1).length
    const drainMs = Math.max(...reports.map((r) => r.lastResultAt)) - firstDue
    const wallMs = Math.max(...reports.map((r) => r.doneAt)) - firstDue
    const machineBusy = (machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total)
    const label = `${instances} instance(s), ${driver}`
    const cores = (ms: number) => round(ms / wallMs, 2)
    return [
      {
        measure: `${label}: drain, s (due time to last network call's end)`,
        value: round(drainMs / 1000, 2),
      },
      {
        measure: `${label}: published / duplicate network calls / late starts`,
        value: `${byStatus.PUBLISHED ?? 0} / ${duplicates} / ${reports.filter((r) => r.lateStart).length}`,
      },
      { measure: `${label}: publishes per instance`, value: reports.map((r) => r.calls.length).join(', ') },
      {
        measure: `${label}: CPU per instance, ms per publish`,
        value: reports.map((r) => round(r.cpuMs / Math.max(1, r.calls.length), 2)).join(', '),
      },
      {
        measure: `${label}: CPU of all instances, ms per published target`,
        value: round(instanceCpu.used() / Math.max(1, Number(byStatus.PUBLISHED ?? 0)), 2),
      },
      {
        measure: `${label}: CPU in cores (instances${database.proxyPid ? ' and proxy' : ''} / PostgreSQL backends) over the drain`,
        value: `${cores(instanceCpu.used())} / ${cores(backendCpu.used())}`,
      },
      {
        measure: `${label}: machine busy over the drain (${cpus().length} cores)`,
        value: `${Math.round(100 * machineBusy)}%`,
      },
      {
        measure: `${label}: PostgreSQL backends, ms of CPU per publish`,
        value: round(backendCpu.used() / Math.max(1, Number(byStatus.PUBLISHED ?? 0)), 2),
      },
    ]
  } finally {
    await database.close()
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * The engine's burst (TARGETS due at once, `--full`: 10,000) drained by 1 and by 3 instances on one
 * PostgreSQL (each a process with its own in-process queue, handed every pending target at its start),
 * with the CPU each part used: whether more instances drain faster, and what each instance's work costs.
 */
export const engineInstancesBenchmark: Benchmark = {
  name: 'engine-instances',
  description: `${TARGETS.toLocaleString('en')} targets due at once on one PostgreSQL (DATABASE_URL), drained by ${INSTANCES.join(' and ')} instance(s); adapter ${ADAPTER_MS} ms per call`,
  async run() {
    const rows: Rows = []
    const drains = new Map<number, number>()
    for (const instances of INSTANCES) {
      const out = await runInstances(instances)
      drains.set(instances, Number(out[0]!.value))
      rows.push(...out)
    }
    const one = drains.get(1)
    for (const [n, drain] of drains)
      if (one && n > 1)
        rows.push({ measure: `drain with 1 instance / with ${n} (same run)`, value: `${round(one / drain, 2)}x` })
    return rows
  },
}
