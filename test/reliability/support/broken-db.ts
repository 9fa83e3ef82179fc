/**
 * Two ways to lose the database connection inside a publishing transaction, one per kind of run.
 *
 * PostgreSQL (`inject('databaseUrl')`): the real thing. A separate connection holds the post's row
 * lock, so the engine's transaction blocks on its first statement (the post is always locked first);
 * once it waits, every other backend of the test database (this file's pool: the run has a
 * database of its own) is killed with `pg_terminate_backend`, and the lock is let go.
 *
 * Embedded PGlite: there is no connection to drop (it runs in this process). The closest real thing
 * is a database client whose transaction fails at its N-th statement, as a dropped connection
 * makes a driver fail, after which PGlite rolls the transaction back: a Drizzle database over the
 * same PGlite, through a proxy of its client, given to the app with createTestApp's `parts`.
 */
import type { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import { drizzle } from 'drizzle-orm/pglite'
import * as schema from '../../../src/db/schema'
import type { Db } from '../../../src/db/types'

export interface BreakPlan {
  /** The next transaction to begin fails at this statement (1 = its first), then the plan disarms. */
  arm(statement: number): void
  /** Transactions broken so far. */
  broken(): number
}

/** A Drizzle database over the PGlite behind `db`, whose armed transaction fails mid-way. */
export function breakableDb(db: Db): { db: Db; plan: BreakPlan } {
  const client = (db as unknown as { $client: PGlite }).$client
  let armedAt = 0
  let broken = 0
  const failing = (tx: object, failAt: number) => {
    let statements = 0
    return new Proxy(tx, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target)
        if (typeof value !== 'function') return value
        if (prop !== 'query' && prop !== 'exec' && prop !== 'sql') return value.bind(target)
        return async (...args: unknown[]) => {
          if (++statements === failAt) {
            broken++
            throw new Error('Connection terminated unexpectedly')
          }
          return value.apply(target, args)
        }
      },
    })
  }
  const proxy = new Proxy(client, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target)
      if (prop !== 'transaction') return typeof value === 'function' ? value.bind(target) : value
      return (fn: (tx: object) => Promise<unknown>) => {
        const failAt = armedAt
        armedAt = 0
        return target.transaction((tx) => fn(failAt > 0 ? failing(tx, failAt) : tx))
      }
    },
  })
  return {
    db: drizzle({ client: proxy, schema }) as unknown as Db,
    plan: { arm: (n) => (armedAt = n), broken: () => broken },
  }
}

export interface PostLock {
  /** Waits until another backend waits on the lock, then terminates every other backend of the database. */
  dropWaitingConnections(): Promise<number>
  release(): Promise<void>
}

/** Takes the post row's lock on a connection of its own (the service's transactions will wait on it). */
export async function lockPost(url: string, postId: string): Promise<PostLock> {
  const locker = new pg.Client({ connectionString: url })
  await locker.connect()
  await locker.query('begin')
  await locker.query('select id from posts where id = $1 for update', [postId])
  return {
    async dropWaitingConnections() {
      const deadline = Date.now() + 20_000
      for (;;) {
        const waiting = await locker.query(
          `select count(*)::int as n from pg_stat_activity
           where datname = current_database() and pid <> pg_backend_pid() and wait_event_type = 'Lock'`,
        )
        if (waiting.rows[0].n > 0) break
        if (Date.now() > deadline) throw new Error('the engine never waited on the post lock')
        await new Promise((r) => setTimeout(r, 20))
      }
      const killed = await locker.query(
        `select count(*)::int as n from (select pg_terminate_backend(pid) from pg_stat_activity
         where datname = current_database() and pid <> pg_backend_pid()) k`,
      )
      return killed.rows[0].n as number
    },
    async release() {
      await locker.query('rollback').catch(() => undefined)
      await locker.end()
    },
  }
}
