import { getTableColumns, type SQL } from 'drizzle-orm'
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core'
import type { DbOrTx } from './types'

/** The rows a statement answered, each keyed by the names of its columns, as the driver read them. */
export function resultRows(result: unknown): Array<Record<string, unknown>> {
  return (result as { rows: Array<Record<string, unknown>> }).rows
}

/**
 * The rows a statement answered (every column of `table`, by its own name: `returning *`, `select
 * t.*`), mapped as Drizzle maps the table's rows. With the statement written as SQL text this skips
 * Drizzle's query builder, which on the publishing engine's statements cost more of Node's thread
 * than the driver and the database's answer together (docs/performance.md).
 */
export function tableRows<T extends PgTable>(table: T, result: unknown): Array<T['$inferSelect']> {
  const columns = Object.entries(getTableColumns(table) as Record<string, PgColumn>)
  return resultRows(result).map((raw) => {
    const row: Record<string, unknown> = {}
    for (const [key, column] of columns) {
      const value = raw[column.name]
      row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value)
    }
    return row as T['$inferSelect']
  })
}

/** `statement`'s rows of `table` (it answers every column of the table by its own name). */
export async function selectTableRows<T extends PgTable>(
  db: DbOrTx,
  table: T,
  statement: SQL,
): Promise<Array<T['$inferSelect']>> {
  return tableRows(table, await db.execute(statement))
}
