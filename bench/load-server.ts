import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))

export interface Spawned {
  child: ChildProcess
  match: RegExpExecArray
  output: () => string
  /** Resolves with the exit code when the process ends. */
  exited: Promise<number | null>
  /** SIGTERM, then SIGKILL after `graceMs`; resolves with the exit code. */
  stop(graceMs?: number): Promise<number | null>
}

/** `node --import tsx <args>` from the repository root; resolves once its output matches `ready`. */
export function spawnNode(args: string[], env: Record<string, string>, ready: RegExp, timeoutMs = 120_000) {
  return new Promise<Spawned>((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let exited = false
    const exit = new Promise<number | null>((done) => child.once('exit', (code) => done(code)))
    void exit.then(() => (exited = true))
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`${args.join(' ')} did not start in ${timeoutMs} ms:\n${out}`))
    }, timeoutMs)
    const onData = (d: Buffer) => {
      out += d
      const match = ready.exec(out)
      if (!match) return
      clearTimeout(timer)
      resolve({
        child,
        match,
        output: () => out,
        exited: exit,
        stop: async (graceMs = 30_000) => {
          if (exited) return child.exitCode
          child.kill('SIGTERM')
          const killer = setTimeout(() => child.kill('SIGKILL'), graceMs)
          const code = await exit
          clearTimeout(killer)
          return code
        },
      })
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', (d) => (out += d))
    void exit.then((code) => {
      clearTimeout(timer)
      reject(new Error(`${args.join(' ')} exited with ${code}:\n${out}`))
    })
  })
}

/** Settings of the server a benchmark run passes on to it from its own environment. */
const SERVER_KNOBS = [
  'REDIS_URL',
  'REQUESTS_IN_FLIGHT_MAX',
  'REQUEST_WAIT_MAX_MS',
  'DATABASE_POOL_MAX',
  'PUBLISH_CONCURRENCY',
]

/** What a started `npm start` told us: where it listens, its local media store, and the demo token. */
export interface ApiServer {
  baseUrl: string
  token: string
  database: string
  pid: number
  output: () => string
  stop(): Promise<number | null>
}

/**
 * `npm start` (src/entry/node.ts) as its own process: PORT=0, a fresh DATA_DIR (so the demo
 * workspace is created and its token printed), TRUST_PROXY off. `cpuProfDir` adds `--cpu-prof`:
 * the profile is written when the server exits on SIGTERM.
 */
export async function startApiServer(options: {
  databaseUrl?: string
  wsProxy?: string | null
  cpuProfDir?: string
  extraEnv?: Record<string, string>
  /** False for a further instance on a database that has its workspace: it prints no token. */
  expectToken?: boolean
}): Promise<ApiServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sps-bench-load-'))
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    DATA_DIR: dataDir,
    PORT: '0',
    LOG_LEVEL: process.env.LOAD_LOG_LEVEL ?? 'warn',
    NODE_NO_WARNINGS: '1',
    TRUST_PROXY: 'false',
    ...options.extraEnv,
  }
  if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl
  if (options.wsProxy) env.NEON_WS_PROXY = options.wsProxy
  // The server's own knobs, when the benchmark is run with them (`REQUESTS_IN_FLIGHT_MAX=0 npm run bench -- load`).
  for (const key of SERVER_KNOBS) if (process.env[key]) env[key] = process.env[key]
  const prof = options.cpuProfDir ? ['--cpu-prof', '--cpu-prof-dir', options.cpuProfDir] : []
  try {
    const started = await spawnNode(
      [...prof, '--import', 'tsx', 'src/entry/node.ts'],
      env,
      options.expectToken === false
        ? /on (http:\/\/\S+) \(database: (\w+)[\s\S]*?Media store/
        : /on (http:\/\/\S+) \(database: (\w+)[\s\S]*?\n\s+(sps_[0-9A-Za-z]{43})\s*\n/,
    )
    return {
      baseUrl: started.match[1]!,
      database: started.match[2]!,
      token: started.match[3] ?? '',
      pid: started.child.pid!,
      output: started.output,
      stop: () => started.stop().finally(() => rmSync(dataDir, { recursive: true, force: true })),
    }
  } catch (err) {
    rmSync(dataDir, { recursive: true, force: true })
    throw err
  }
}

/** One SQL statement on `url` through `psql` (any driver's benchmark can make and drop its database); its output rows. */
export function psql(url: string, statement: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    execFile('psql', [url, '-XAtq', '-v', 'ON_ERROR_STOP=1', '-c', statement], (err, stdout, stderr) => {
      if (err) reject(new Error(`psql: ${stderr.trim() || err.message}`))
      else resolve(stdout.split('\n').filter((line) => line !== ''))
    })
  })
}

/**
 * A fresh database `bench_load_<random>` on the PostgreSQL of `adminUrl` (made and dropped with
 * `psql`). With `proxy` (the Neon driver's way), a local WebSocket-to-TCP proxy in its own process
 * too, as Neon's edge; node-postgres needs none. `close()` drops the database and stops the proxy.
 */
export async function startPostgresDatabase(
  adminUrl: string,
  options: { proxy: boolean } = { proxy: true },
): Promise<{
  url: string
  /** `NEON_WS_PROXY` for the Neon driver, or null without a proxy. */
  wsProxy: string | null
  proxyPid: number | null
  /** Process ids of the PostgreSQL backends serving the database now (the server's pooled connections). */
  backendPids(): Promise<number[]>
  close(): Promise<void>
}> {
  const proxy = options.proxy
    ? await spawnNode(
        ['--import', 'tsx', 'bench/load-proxy.ts', adminUrl],
        { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_NO_WARNINGS: '1' },
        /proxy (\S+)\n/,
      )
    : null
  const name = `bench_load_${randomBytes(6).toString('hex')}`
  try {
    await psql(adminUrl, `CREATE DATABASE "${name}"`)
  } catch (err) {
    await proxy?.stop()
    throw new Error(`cannot create a database on ${redact(adminUrl)}: ${(err as Error).message}`)
  }
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    wsProxy: proxy?.match[1] ?? null,
    proxyPid: proxy?.child.pid ?? null,
    backendPids: async () =>
      (
        await psql(adminUrl, `select pid from pg_stat_activity where datname = '${name}' and pid <> pg_backend_pid()`)
      ).map(Number),
    close: async () => {
      try {
        await psql(adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
      } finally {
        await proxy?.stop()
      }
    },
  }
}

/**
 * The media store several instances share, in its own process (bench/load-s3.ts): the environment
 * that points an instance at it (S3_ENDPOINT and its keys).
 */
export async function startSharedStore(): Promise<{
  env: Record<string, string>
  pid: number
  stop(): Promise<unknown>
}> {
  const store = await spawnNode(
    ['--import', 'tsx', 'bench/load-s3.ts'],
    { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_NO_WARNINGS: '1' },
    /store (\S+) (\S+) (\S+)\n/,
  )
  const [, endpoint, bucket, secret] = store.match
  return {
    env: {
      S3_ENDPOINT: endpoint!,
      S3_BUCKET: bucket!,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: secret!,
      MEDIA_PUBLIC_URL: `${endpoint}/${bucket}`,
    },
    pid: store.child.pid!,
    stop: () => store.stop(),
  }
}

/**
 * How the benchmarks reach PostgreSQL: `node-postgres` (DATABASE_URL alone, Node's driver once the
 * project has `pg`) or `neon` (the Neon driver through a local WebSocket-to-TCP proxy).
 * `BENCH_PG_DRIVER` chooses; by default node-postgres where the project has it.
 */
export function postgresDriver(): 'node-postgres' | 'neon' {
  const chosen = process.env.BENCH_PG_DRIVER
  if (chosen === 'node-postgres' || chosen === 'neon') return chosen
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> }
  return pkg.dependencies?.pg ? 'node-postgres' : 'neon'
}

/** The URL without its password, for messages. */
export function redact(url: string): string {
  try {
    const u = new URL(url)
    if (u.password) u.password = '***'
    return u.toString()
  } catch {
    return '(unparsable URL)'
  }
}

/** CPU time (user + system) a process has used so far, in ms, from /proc; null where there is none. */
export function processCpuMs(pid: number): number | null {
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100 // USER_HZ is 100 on Linux
  } catch {
    return null
  }
}

/**
 * Starts counting the CPU of each group of processes (and of this one, the generator); the
 * function returned gives each one's share of one core since then, `server 65%, …`.
 */
export function startCpuMeter(groups: Record<string, number[]>): () => string {
  const sum = (pids: number[]) =>
    pids.reduce<number | null>((acc, pid) => {
      const ms = processCpuMs(pid)
      return acc === null || ms === null ? null : acc + ms
    }, 0)
  const startedAt = performance.now()
  const before = Object.entries(groups).map(([name, pids]) => ({ name, pids, ms: sum(pids) }))
  const self = process.cpuUsage()
  return () => {
    const wallMs = performance.now() - startedAt
    const share = (ms: number) => `${Math.round((100 * ms) / wallMs)}%`
    const parts = before.map(({ name, pids, ms }) => {
      const now = sum(pids)
      return `${name} ${ms === null || now === null ? '-' : share(now - ms)}`
    })
    const used = process.cpuUsage(self)
    return [...parts, `generator ${share((used.user + used.system) / 1000)}`].join(', ')
  }
}
