import type { Db, DbOrTx } from './types'

/**
 * Statements of the hottest reads (every authenticated request's token lookup, GET /v1/me, the
 * accounts of a post being created or edited), built once and then only executed with their values
 * on the embedded database, where building a statement from its query builder (columns,
 * conditions, escaping) cost about as much as PGlite running it. Only there: PGlite is one session
 * that ignores the name, whereas on PostgreSQL Drizzle would send it as a named prepared statement,
 * which a pooler or a shared backend may have seen from another client ("already exists"); there
 * the statement is built at each call as before. Keyed by the handle, so two databases of one
 * process (tests, benchmarks) never share one; a transaction's handle is never kept (on PGlite a
 * statement prepared on the database would wait for the session the transaction holds).
 */
const keptStatements = new WeakMap<DbOrTx, Map<string, unknown>>()

/** Marks an embedded database (PGlite) whose prepared statements may be kept across calls. */
export function keepPreparedStatements(db: Db): void {
  keptStatements.set(db, new Map())
}

type Values = Record<string, unknown>
interface Executable<R> {
  execute(values?: Values): Promise<R>
}

/** `build(db)`'s statement with `values` for its placeholders: prepared once where that is kept, else built now. */
export function executePrepared<R, H extends DbOrTx = Db>(
  db: H,
  name: string,
  build: (db: H) => Executable<R> & { prepare(name: string): Executable<R> },
  values: Values,
): Promise<R> {
  const kept = keptStatements.get(db)
  if (!kept) return build(db).execute(values)
  let statement = kept.get(name) as Executable<R> | undefined
  if (!statement) {
    statement = build(db).prepare(name)
    kept.set(name, statement)
  }
  return statement.execute(values)
}
