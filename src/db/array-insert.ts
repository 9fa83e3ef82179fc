import { getTableColumns, sql } from 'drizzle-orm'
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core'
import type { DbOrTx } from './types'

/** A driver value as the text PostgreSQL reads it back into the column's type (null stays null). */
function asText(value: unknown): string | null {
  if (value === null || value === undefined) return null
  if (typeof value === 'string') return value
  if (value instanceof Date) return value.toISOString()
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}

/**
 * Inserts `rows` into `table` with one array parameter per column (`insert ... select ... from
 * unnest(...)`) and answers them as stored, each mapped as Drizzle maps the table's rows. Drizzle's
 * multi-row `values()` makes every column of every row a parameter of its own (ten targets: 270,
 * the unset ones as `default`), and building that statement took longer than running it. Rows must
 * set the same columns; where they do not, the insert is Drizzle's own. Answered in no promised order.
 */
export async function insertFromArrays<T extends PgTable>(
  tx: DbOrTx,
  table: T,
  rows: Array<T['$inferInsert']>,
): Promise<Array<T['$inferSelect']>> {
  const columns = getTableColumns(table) as Record<string, PgColumn>
  // The columns a row sets (undefined leaves a column to its default), as one comparable name.
  const setIn = (row: Record<string, unknown>) => Object.keys(row).filter((key) => row[key] !== undefined)
  const keys = rows.length > 0 ? setIn(rows[0] as Record<string, unknown>) : []
  const shape = keys.join(',')
  const uniform = rows.every((row) => setIn(row as Record<string, unknown>).join(',') === shape)
  if (rows.length === 0 || !uniform || keys.some((key) => !columns[key])) {
    return (await tx.insert(table).values(rows).returning()) as Array<T['$inferSelect']>
  }
  const cols = keys.map((key) => columns[key]!)
  const alias = (i: number) => sql.identifier(`c${i}`)
  const textOf = (column: PgColumn, value: unknown) =>
    value === null || value === undefined ? null : asText(column.mapToDriverValue(value))
  const arrays = cols.map(
    (column, i) =>
      sql`${sql.param(rows.map((row) => textOf(column, (row as Record<string, unknown>)[keys[i]!])))}::text[]`,
  )
  const result = await tx.execute(sql`insert into ${table} (${sql.join(
    cols.map((column) => sql.identifier(column.name)),
    sql`, `,
  )})
    select ${sql.join(
      cols.map((column, i) => sql`${alias(i)}::${sql.raw(column.getSQLType())}`),
      sql`, `,
    )}
    from unnest(${sql.join(arrays, sql`, `)}) as u(${sql.join(
      cols.map((_, i) => alias(i)),
      sql`, `,
    )})
    returning *`)
  const stored = (result as unknown as { rows: Array<Record<string, unknown>> }).rows
  return stored.map((raw) => {
    const row: Record<string, unknown> = {}
    for (const [key, column] of Object.entries(columns)) {
      const value = raw[column.name]
      row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value)
    }
    return row as T['$inferSelect']
  })
}
