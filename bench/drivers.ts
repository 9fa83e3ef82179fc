import { spawn } from 'node:child_process'
import { sql } from 'drizzle-orm'
import ws from 'ws'
import { openNeon } from '../src/db/neon'
import { openNodePostgres } from '../src/db/node-postgres'
import type { Db } from '../src/db/types'

/**
 * `DATABASE_URL=postgres://… npx tsx bench/drivers.ts`: the two PostgreSQL drivers of Node side by
 * side on one server, a pool of 16 each: node-postgres over TCP, and the Neon driver through the
 * WebSocket-to-TCP proxy (bench/load-proxy.ts, in its own process). Per driver and round: the time to
 * open (first connection and statement), 2,000 statements one after another (p50, p99), 8,000 with 16
 * in flight (per second), 500 one-insert transactions one after another (p50, p99). Two rounds each.
 */
interface Connection {
  db: Db
  close(): Promise<void>
}

const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
const ms = (x: number) => `${x.toFixed(2)} ms`
const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * q)]!

async function timed(times: number, step: (i: number) => Promise<unknown>): Promise<number[]> {
  const took: number[] = []
  for (let i = 0; i < times; i++) {
    const start = performance.now()
    await step(i)
    took.push(performance.now() - start)
  }
  return took
}

async function perSecond(db: Db, total: number, inFlight: number): Promise<number> {
  const start = performance.now()
  let sent = 0
  const worker = async () => {
    while (sent++ < total) await db.execute(sql`select 1`)
  }
  await Promise.all(Array.from({ length: inFlight }, worker))
  return total / ((performance.now() - start) / 1000)
}

async function measure(label: string, open: () => Promise<Connection>): Promise<Record<string, string | number>> {
  const openedAt = performance.now()
  const conn = await open()
  await conn.db.execute(sql`select 1`)
  const openMs = performance.now() - openedAt
  const table = sql.raw(`bench_drivers_${process.pid}`)
  await conn.db.execute(sql`create table ${table} (id serial primary key, v text)`)
  try {
    const selects = await timed(2000, (i) => conn.db.execute(sql`select ${i}::int as n`))
    const rate = await perSecond(conn.db, 8000, 16)
    const txs = await timed(500, () =>
      conn.db.transaction((tx) => tx.execute(sql`insert into ${table} (v) values ('x')`)),
    )
    return {
      driver: label,
      open: ms(openMs),
      'select p50': ms(quantile(selects, 0.5)),
      'select p99': ms(quantile(selects, 0.99)),
      'select x16 /s': Math.round(rate),
      'tx p50': ms(quantile(txs, 0.5)),
      'tx p99': ms(quantile(txs, 0.99)),
    }
  } finally {
    await conn.db.execute(sql`drop table ${table}`)
    await conn.close()
  }
}

async function startProxy(): Promise<{ address: string; stop(): void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/load-proxy.ts', url], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const address = await new Promise<string>((resolve) =>
    child.stdout.on('data', (d) => {
      const found = /proxy (\S+)/.exec(String(d))
      if (found) resolve(found[1]!)
    }),
  )
  return { address, stop: () => child.kill('SIGTERM') }
}

const proxy = await startProxy()
try {
  const rows: Array<Record<string, string | number>> = []
  for (let round = 0; round < 2; round++) {
    rows.push(await measure('node-postgres', () => openNodePostgres({ url, max: 16 })))
    rows.push(
      await measure('neon + proxy', async () => openNeon({ url, wsProxy: proxy.address, webSocket: ws, max: 16 })),
    )
  }
  console.table(rows)
} finally {
  proxy.stop()
}
