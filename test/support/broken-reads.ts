import type { Db } from '../../src/db/types'

/**
 * The database `db` with every read (`select`) failing inside the driver, with SQL and a table name in
 * the error's message: for tests that an unexpected error reaches no answer and no log line as such.
 */
export function withBrokenReads<P extends { db: Db }>(parts: P, sqlInMessage: string): P {
  const db = new Proxy(parts.db, {
    get(target, prop, receiver) {
      if (prop === 'select')
        return () => {
          throw Object.assign(new Error(`Failed query: ${sqlInMessage}`), { code: '42P01' })
        }
      return Reflect.get(target, prop, receiver)
    },
  })
  return { ...parts, db }
}
