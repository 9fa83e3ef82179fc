/**
 * A PostgreSQL server of a fault test's own, from the machine's binaries, on a free port: a fault may
 * stop, restart or cut it without touching the shared server other tests use (port 5432). Its
 * cluster lives in a temporary directory owned by `postgres` (initdb refuses root), trusted on
 * 127.0.0.1 and its own socket directory; `stop()` with `remove: true` deletes it.
 */
import { execFile } from 'node:child_process'
import { chownSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import pg from 'pg'

const run = promisify(execFile)
const BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin'

export interface PrivatePostgres {
  port: number
  /** The cluster's directory (data and socket). */
  dir: string
  /** A URL to `database` (default `postgres`) as the superuser `postgres`, on 127.0.0.1. */
  url(database?: string): string
  /** Creates a database and answers its URL. */
  createDatabase(name: string): Promise<string>
  /** `pg_ctl stop -m <mode>` (default fast: sessions are terminated, 57P01, then the server is gone). */
  stop(options?: { mode?: 'smart' | 'fast' | 'immediate'; remove?: boolean }): Promise<void>
  /** `pg_ctl start`, waiting until it accepts connections. */
  start(): Promise<void>
  /** Stops (fast), waits `downMs`, starts again. */
  restart(downMs?: number): Promise<void>
  /** `pg_terminate_backend` on every other session of `database` (all of them when not given): how many. */
  terminateBackends(database?: string): Promise<number>
}

/** A TCP port nobody listens on now. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

const asPostgres = (args: string[]) => run('runuser', ['-u', 'postgres', '--', ...args], { timeout: 60_000 })

/** initdb in a fresh directory, then a start on a free port. */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'sps-private-pg-'))
  const uid = Number((await run('id', ['-u', 'postgres'])).stdout.trim())
  const gid = Number((await run('id', ['-g', 'postgres'])).stdout.trim())
  chownSync(dir, uid, gid)
  const data = join(dir, 'data')
  await asPostgres([join(BIN, 'initdb'), '-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync'])
  const port = await freePort()
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100`
  const ctl = (...args: string[]) =>
    asPostgres([join(BIN, 'pg_ctl'), '-D', data, '-o', options, '-l', join(dir, 'log'), '-w', ...args])
  const url = (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`
  const admin = async <T>(work: (client: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: url(), connectionTimeoutMillis: 5_000 })
    client.on('error', () => {})
    await client.connect()
    try {
      return await work(client)
    } finally {
      await client.end().catch(() => {})
    }
  }
  const self: PrivatePostgres = {
    port,
    dir,
    url,
    async createDatabase(name) {
      await admin((c) => c.query(`create database "${name.replace(/"/g, '')}"`))
      return url(name)
    },
    async stop(options = {}) {
      await ctl('stop', '-m', options.mode ?? 'fast').catch((err: unknown) => {
        if (!options.remove) throw err
      })
      if (options.remove) rmSync(dir, { recursive: true, force: true })
    },
    async start() {
      await ctl('start')
    },
    async restart(downMs = 0) {
      await self.stop()
      await new Promise((resolve) => setTimeout(resolve, downMs))
      await self.start()
    },
    terminateBackends: (database) =>
      admin(async (c) => {
        const res = await c.query(
          `select count(*) filter (where pg_terminate_backend(pid))::int as n from pg_stat_activity
           where pid <> pg_backend_pid() and backend_type = 'client backend' and ($1::text is null or datname = $1)`,
          [database ?? null],
        )
        return Number(res.rows[0]?.n ?? 0)
      }),
  }
  await self.start()
  return self
}
