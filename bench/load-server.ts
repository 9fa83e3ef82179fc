import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import ws from 'ws'
import { openNeon } from '../src/db/neon'

const ROOT = fileURLToPath(new URL('..', import.meta.url))

interface Spawned {
  child: ChildProcess
  match: RegExpExecArray
  output: () => string
  /** SIGTERM, then SIGKILL after `graceMs`; resolves with the exit code. */
  stop(graceMs?: number): Promise<number | null>
}

/** `node --import tsx <args>` from the repository root; resolves once its output matches `ready`. */
function spawnNode(args: string[], env: Record<string, string>, ready: RegExp, timeoutMs = 120_000) {
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
  wsProxy?: string
  cpuProfDir?: string
  extraEnv?: Record<string, string>
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
  const prof = options.cpuProfDir ? ['--cpu-prof', '--cpu-prof-dir', options.cpuProfDir] : []
  try {
    const started = await spawnNode(
      [...prof, '--import', 'tsx', 'src/entry/node.ts'],
      env,
      /on (http:\/\/\S+) \(database: (\w+)[\s\S]*?\n\s+(sps_[0-9A-Za-z]{43})\s*\n/,
    )
    return {
      baseUrl: started.match[1]!,
      database: started.match[2]!,
      token: started.match[3]!,
      pid: started.child.pid!,
      output: started.output,
      stop: () => started.stop().finally(() => rmSync(dataDir, { recursive: true, force: true })),
    }
  } catch (err) {
    rmSync(dataDir, { recursive: true, force: true })
    throw err
  }
}

/**
 * A fresh database `bench_load_<random>` on the PostgreSQL of `adminUrl`, reached the way the
 * server reaches it (the Neon driver through a WebSocket-to-TCP proxy, run in its own process).
 * `close()` drops the database and stops the proxy.
 */
export async function startPostgresDatabase(adminUrl: string): Promise<{
  url: string
  wsProxy: string
  proxyPid: number
  /** Process ids of the PostgreSQL backends serving the database now (the server's pooled connections). */
  backendPids(): Promise<number[]>
  close(): Promise<void>
}> {
  const proxy = await spawnNode(
    ['--import', 'tsx', 'bench/load-proxy.ts', adminUrl],
    { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_NO_WARNINGS: '1' },
    /proxy (\S+)\n/,
  )
  const wsProxy = proxy.match[1]!
  const admin = openNeon({ url: adminUrl, wsProxy, webSocket: ws, max: 1 })
  const name = `bench_load_${randomBytes(6).toString('hex')}`
  try {
    await admin.db.execute(`CREATE DATABASE "${name}"`)
  } catch (err) {
    await admin.close().catch(() => {})
    await proxy.stop()
    throw new Error(`cannot create a database on ${redact(adminUrl)}: ${(err as Error).message}`)
  }
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    wsProxy,
    proxyPid: proxy.child.pid!,
    backendPids: async () => {
      const result = (await admin.db.execute(
        `select pid from pg_stat_activity where datname = '${name}' and pid <> pg_backend_pid()`,
      )) as unknown as { rows: Array<{ pid: number }> }
      return result.rows.map((r) => Number(r.pid))
    },
    close: async () => {
      try {
        await admin.db.execute(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
      } finally {
        await admin.close().catch(() => {})
        await proxy.stop()
      }
    },
  }
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
