import type { PGlite, Transaction } from '@electric-sql/pglite'

/**
 * Counts the statements a piece of work sends to the embedded database (each one round trip on a
 * networked one), BEGIN and COMMIT included, by wrapping the PGlite client's entry points for the
 * duration of `fn`. Benchmarks only.
 */
export async function countRoundTrips<T>(
  client: PGlite,
  fn: () => Promise<T>,
  log?: (sql: string) => void,
): Promise<{ result: T; roundTrips: number }> {
  let count = 0
  const note = (sql: string) => {
    count++
    log?.(sql)
  }
  const original = { query: client.query, exec: client.exec, transaction: client.transaction }
  const c = client as unknown as Record<string, unknown>
  c.query = (sql: string, ...rest: unknown[]) => {
    note(sql)
    return (original.query as (...a: unknown[]) => unknown).call(client, sql, ...rest)
  }
  c.exec = (sql: string, ...rest: unknown[]) => {
    note(sql)
    return (original.exec as (...a: unknown[]) => unknown).call(client, sql, ...rest)
  }
  c.transaction = (callback: (tx: Transaction) => Promise<unknown>) => {
    note('BEGIN')
    return (original.transaction as (cb: (tx: Transaction) => Promise<unknown>) => Promise<unknown>)
      .call(client, (tx) => {
        const wrapped = Object.create(tx) as Transaction
        wrapped.query = ((sql: string, ...rest: unknown[]) => {
          note(sql)
          return (tx.query as (...a: unknown[]) => unknown)(sql, ...rest)
        }) as Transaction['query']
        wrapped.exec = ((sql: string, ...rest: unknown[]) => {
          note(sql)
          return (tx.exec as (...a: unknown[]) => unknown)(sql, ...rest)
        }) as Transaction['exec']
        return callback(wrapped)
      })
      .finally(() => note('COMMIT'))
  }
  try {
    return { result: await fn(), roundTrips: count }
  } finally {
    Object.assign(client, original)
  }
}
