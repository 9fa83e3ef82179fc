import type { ExtractTablesWithRelations } from 'drizzle-orm'
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core'
import type * as schema from './schema'

export type Schema = typeof schema
/** Any Drizzle PostgreSQL database of ours: PGlite (embedded), or Neon serverless (production, CI). */
export type Db = PgDatabase<PgQueryResultHKT, Schema>
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>
/** A service function takes either and works the same inside or outside a transaction. */
export type DbOrTx = Db | Tx
