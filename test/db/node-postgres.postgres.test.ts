/**
 * PostgreSQL on Node, on the run's real server (this file runs only in server mode: vitest.config.ts
 * selects `*.postgres.test.ts` when DATABASE_URL is set). DATABASE_URL alone opens it through
 * node-postgres, with no proxy; NEON_WS_PROXY puts the Worker's driver (Neon) in its place, and both
 * answer the same values for the same statements.
 */
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { afterAll, describe, expect, inject, it } from 'vitest'
import { parseNodeConfig } from '../../src/config'
import type { Db } from '../../src/db/types'
import { openNodeDatabase, type NodeDatabase } from '../../src/runtime/node-database'
import { startNeonWsProxy } from '../support/neon-ws-proxy'

const url = inject('databaseUrl')!
const opened: NodeDatabase[] = []
const closers: Array<() => Promise<void>> = []
afterAll(async () => {
  for (const database of opened) await database.close()
  for (const close of closers) await close()
})

async function open(env: Record<string, string>): Promise<NodeDatabase> {
  const database = await openNodeDatabase(parseNodeConfig({ DATA_DIR: '/nonexistent', LOG_LEVEL: 'silent', ...env }))
  opened.push(database)
  return database
}

const rows = async (db: Db, query: ReturnType<typeof sql>) =>
  ((await db.execute(query)) as unknown as { rows: Array<Record<string, unknown>> }).rows

const withDatabase = (name: string) => {
  const u = new URL(url)
  u.pathname = `/${name}`
  return u.toString()
}

/** One value of each kind the service reads, as literals: the drivers' parsing alone decides what comes back. */
const TYPED = sql`select
  '2026-03-04 05:06:07.089+00'::timestamptz as "timestamptz",
  '2026-03-04 05:06:07'::timestamp as "timestamp",
  '2026-03-04'::date as "date",
  '1 day 02:00:00'::interval as "interval",
  9007199254740993::int8 as "int8",
  count(*) as "count",
  12.50::numeric as "numeric",
  42::int4 as "int4",
  1.5::float8 as "float8",
  true as "bool",
  '{"a":1,"b":[true,null]}'::json as "json",
  '{"c":"x"}'::jsonb as "jsonb",
  array['x','y']::text[] as "texts",
  array[1,2]::int8[] as "int8s",
  array['2026-03-04 05:06:07+00']::timestamptz[] as "timestamptzs",
  '00000000-0000-4000-8000-000000000000'::uuid as "uuid",
  null::text as "null"
  from (values (1), (2)) as v(n)`

describe('PostgreSQL on Node', () => {
  it('opens DATABASE_URL through node-postgres with no proxy: statements and transactions work', async () => {
    const database = await open({ DATABASE_URL: url })
    expect(database.database).toBe('postgres')
    expect((database.db as unknown as { $client: unknown }).$client).toBeInstanceOf(pg.Pool)
    const table = `pg_tx_${process.pid}_${Date.now()}`
    await database.db.execute(sql.raw(`create table ${table} (n int)`))
    try {
      await expect(
        database.db.transaction(async (tx) => {
          await tx.execute(sql.raw(`insert into ${table} values (1)`))
          throw new Error('roll back')
        }),
      ).rejects.toThrow('roll back')
      await database.db.transaction((tx) => tx.execute(sql.raw(`insert into ${table} values (2)`)))
      expect(await rows(database.db, sql.raw(`select n from ${table}`))).toEqual([{ n: 2 }])
    } finally {
      await database.db.execute(sql.raw(`drop table ${table}`))
    }
  })

  it('answers the same values as the Neon driver (through NEON_WS_PROXY) for every type the service reads', async () => {
    const server = new URL(url)
    const proxy = await startNeonWsProxy({ pgHost: server.hostname, pgPort: Number(server.port || 5432) })
    closers.push(proxy.close)
    const nodePostgres = await open({ DATABASE_URL: url })
    const neon = await open({ DATABASE_URL: url, NEON_WS_PROXY: proxy.address })
    expect((neon.db as unknown as { $client: unknown }).$client).not.toBeInstanceOf(pg.Pool)
    const viaNeon = await rows(neon.db, TYPED)
    const viaNodePostgres = await rows(nodePostgres.db, TYPED)
    expect(viaNodePostgres).toEqual(viaNeon)
    // What the queries rely on: timestamps as PostgreSQL's text, int8 and numeric as exact text, JSON parsed.
    expect(viaNodePostgres[0]).toMatchObject({
      timestamptz: '2026-03-04 05:06:07.089+00',
      timestamp: '2026-03-04 05:06:07',
      date: '2026-03-04',
      int8: '9007199254740993',
      count: '2',
      numeric: '12.50',
      int4: 42,
      float8: 1.5,
      json: { a: 1, b: [true, null] },
      jsonb: { c: 'x' },
      texts: ['x', 'y'],
      int8s: ['1', '2'],
      null: null,
    })
  })

  it('refuses to start on a database that does not exist, naming host, port and the reason', async () => {
    const { hostname, port } = new URL(url)
    const missing = `sps_missing_${process.pid}`
    await expect(open({ DATABASE_URL: withDatabase(missing) })).rejects.toThrow(
      `Cannot open the database "${missing}" at ${hostname}:${port || 5432} as user "postgres": database "${missing}" does not exist.`,
    )
  })

  it('with sslmode=require, refuses a server without TLS rather than talk to it in the clear', async () => {
    const u = new URL(url)
    u.searchParams.set('sslmode', 'require')
    await expect(open({ DATABASE_URL: u.toString() })).rejects.toThrow(
      `at ${u.hostname}:${u.port || 5432} as user "postgres": The server does not support SSL connections.`,
    )
  })

  it('with sslmode=disable or prefer (TLS where the server offers it), opens a server without TLS', async () => {
    for (const mode of ['disable', 'prefer']) {
      const u = new URL(url)
      u.searchParams.set('sslmode', mode)
      const database = await open({ DATABASE_URL: u.toString() })
      expect(await rows(database.db, sql`select ssl from pg_stat_ssl where pid = pg_backend_pid()`)).toEqual([
        { ssl: false },
      ])
    }
  })
})
