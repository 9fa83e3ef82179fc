import { getTableColumns, getTableName, is, Param, SQL, StringChunk, sql } from 'drizzle-orm'
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core'
import { tableRows } from './table-rows'
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
 * Inserts `rows` into `table` with the rows as one JSON parameter (`insert ... select ... from
 * jsonb_array_elements(...)`, each row an array of its values as text) and answers them as stored,
 * each mapped as Drizzle maps the table's rows. Drizzle's multi-row `values()` makes every column of
 * every row a parameter of its own (ten targets: 270, the unset ones as `default`), and building
 * that statement took longer than running it. Rows must set the same columns; where they do not,
 * the insert is Drizzle's own. Answered in no promised order.
 */
export async function insertFromArrays<T extends PgTable>(
  tx: DbOrTx,
  table: T,
  rows: Array<T['$inferInsert']>,
): Promise<Array<T['$inferSelect']>> {
  const keys = sharedColumns(table, rows)
  if (!keys) return (await tx.insert(table).values(rows).returning()) as Array<T['$inferSelect']>
  return tableRows(table, await tx.execute(sql`${insertStatement(table, rows, keys)} returning *`))
}

/**
 * The statement of `insertFromArrays` without its `returning`, to be part of a larger one (a
 * `with` of several inserts); `where` filters its select, so it inserts nothing unless that holds.
 * Every row sets the same columns of the table (and there is at least one).
 */
export function insertFromArraysStatement<T extends PgTable>(
  table: T,
  rows: Array<T['$inferInsert']>,
  where?: SQL,
): SQL {
  const keys = sharedColumns(table, rows)
  if (!keys) throw new Error('insertFromArraysStatement: rows must set the same columns of the table')
  return insertStatement(table, rows, keys, where)
}

/** The columns of `table` each of `rows` sets, the same in every row; null when they differ or there is no row. */
function sharedColumns<T extends PgTable>(table: T, rows: Array<T['$inferInsert']>): string[] | null {
  const columns = getTableColumns(table) as Record<string, PgColumn>
  const keys = rows.length > 0 ? columnsSet(rows[0]!) : []
  const shape = keys.join(',')
  if (rows.length === 0 || rows.some((row) => columnsSet(row).join(',') !== shape) || keys.some((k) => !columns[k]))
    return null
  return keys
}

function insertStatement<T extends PgTable>(table: T, rows: Array<T['$inferInsert']>, keys: string[], where?: SQL) {
  const columns = getTableColumns(table) as Record<string, PgColumn>
  // The rows travel as one JSON parameter (each row an array of its values as text, read back by a
  // cast to the column's type), and the statement is written out as text around it: composing it
  // from Drizzle's fragments (an identifier, a cast and an alias per column), and a parameter per
  // column, cost as much as running it.
  // A column every row leaves as the table would (null without a default, or the default's value) is
  // left to the table: the same row, a shorter statement.
  const written = keys.filter((key) => !rows.every((row) => asTableWould(columns[key]!, (row as Values)[key])))
  const cols = written.map((key) => columns[key]!)
  const values = rows.map((row) => cols.map((column, i) => textOf(column, (row as Values)[written[i]!])))
  return new SQL([
    new StringChunk(
      `insert into ${quoted(getTableName(table))} (${cols.map((c) => quoted(c.name)).join(', ')}) select ${cols
        .map((c, i) => `(r ->> ${i})::${c.getSQLType()}`)
        .join(', ')} from jsonb_array_elements(`,
    ),
    new Param(JSON.stringify(values)),
    new StringChunk('::jsonb) as r'),
    ...(where ? [new StringChunk(' where '), where] : []),
  ])
}

type Values = Record<string, unknown>

/** True when the table stores `value` in `column` whether it is written or left out. */
function asTableWould(column: PgColumn, value: unknown): boolean {
  if (!column.hasDefault) return value === null || value === undefined
  if (is(column.default, SQL) || column.defaultFn) return false
  return textOf(column, value) === textOf(column, column.default)
}

/** An identifier as PostgreSQL reads it (Drizzle's own quoting). */
const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`

/**
 * The row `table` stores for an insert of `values`, without reading it back: a column the values
 * leave unset takes its default where that is a value, else null. A default computed by the
 * database (`now()`) cannot be known here, so such a column must be set.
 */
export function rowAsInserted<T extends PgTable>(table: T, values: T['$inferInsert']): T['$inferSelect'] {
  return rowsAsInserted(table, [values])[0]!
}

/** `rowAsInserted` of each of `list`, the table's columns read once. */
export function rowsAsInserted<T extends PgTable>(table: T, list: Array<T['$inferInsert']>): Array<T['$inferSelect']> {
  const columns = Object.entries(getTableColumns(table) as Record<string, PgColumn>)
  return list.map((values) => {
    const row: Record<string, unknown> = {}
    for (const [key, column] of columns) {
      const value = (values as Record<string, unknown>)[key]
      if (value !== undefined) row[key] = value
      else if (!column.hasDefault) row[key] = null
      else if (is(column.default, SQL) || column.defaultFn)
        throw new Error(`rowAsInserted: ${column.name} has a default of the database's: set it`)
      else row[key] = typeof column.default === 'object' ? structuredClone(column.default) : column.default
    }
    return row as T['$inferSelect']
  })
}

/** One row's change for `updateFromArrays`: the row's key, the columns it sets, the values its guard compares. */
export interface ArrayUpdate<T extends PgTable> {
  key: string
  set: Partial<T['$inferInsert']>
  match?: Record<string, unknown>
}

/**
 * Updates many rows of `table`, each with its own values, in one statement (`update ... from
 * unnest(...)`, one array parameter per column): the row whose `keyColumn` is each update's `key`
 * gets that update's `set`, if `where` holds for it. `where` is SQL text that names the table's
 * columns by the table's name (`targets.status`) and reads each update's `match` values through
 * `matched(name)` (typed as the table's column of that name). Every update sets the same columns
 * and matches the same names; the keys are distinct. Answers the rows as written (a row `where`
 * refused is not among them), each mapped as Drizzle maps the table's rows, in no promised order.
 * Arrays, not one JSON parameter as the insert takes: the planner knows an array's length and finds
 * each row by its key, where it takes a JSON parameter for 100 rows and scans the whole table. The
 * statement is written out as text around its parameters, as the insert's is.
 */
export async function updateFromArrays<T extends PgTable>(
  tx: DbOrTx,
  table: T,
  keyColumn: PgColumn,
  updates: Array<ArrayUpdate<T>>,
  where?: (matched: (name: string) => string) => string,
): Promise<Array<T['$inferSelect']>> {
  if (updates.length === 0) return []
  const columns = getTableColumns(table) as Record<string, PgColumn>
  const setKeys = columnsSet(updates[0]!.set)
  const matchKeys = Object.keys(updates[0]!.match ?? {})
  const shape = (u: ArrayUpdate<T>) => `${columnsSet(u.set).join(',')}|${Object.keys(u.match ?? {}).join(',')}`
  const first = shape(updates[0]!)
  if (updates.some((u) => shape(u) !== first) || [...setKeys, ...matchKeys].some((k) => !columns[k]))
    throw new Error('updateFromArrays: every update must set and match the same columns of the table')
  if (new Set(updates.map((u) => u.key)).size !== updates.length) throw new Error('updateFromArrays: repeated key')
  const arrays = [
    updates.map((u) => u.key),
    ...setKeys.map((k) => updates.map((u) => textOf(columns[k]!, (u.set as Values)[k]))),
    ...matchKeys.map((k) => updates.map((u) => textOf(columns[k]!, u.match![k]))),
  ]
  const typed = (name: string, column: PgColumn) => `u.${quoted(name)}::${column.getSQLType()}`
  const matched = (name: string) => {
    if (!matchKeys.includes(name)) throw new Error(`updateFromArrays: no match value named ${name}`)
    return typed(`m_${name}`, columns[name]!)
  }
  const guard = where?.(matched)
  const name = quoted(getTableName(table))
  const sets = setKeys.map((k) => `${quoted(columns[k]!.name)} = ${typed(`s_${k}`, columns[k]!)}`)
  const aliases = ['key', ...setKeys.map((k) => `s_${k}`), ...matchKeys.map((k) => `m_${k}`)].map(quoted)
  const chunks: Array<StringChunk | Param> = [new StringChunk(`update ${name} set ${sets.join(', ')} from unnest(`)]
  arrays.forEach((values, i) =>
    chunks.push(new Param(values), new StringChunk(i < arrays.length - 1 ? '::text[], ' : '::text[]')),
  )
  chunks.push(
    new StringChunk(
      `) as u(${aliases.join(', ')}) where ${name}.${quoted(keyColumn.name)} = u."key"::${keyColumn.getSQLType()}` +
        `${guard ? ` and (${guard})` : ''} returning ${name}.*`,
    ),
  )
  return tableRows(table, await tx.execute(new SQL(chunks)))
}

/** The columns a row sets (undefined leaves a column as it is, or to its default), in the row's order. */
export function columnsSet(row: object): string[] {
  return Object.keys(row).filter((key) => (row as Record<string, unknown>)[key] !== undefined)
}

/** A value as the text its column's type reads back (the column's driver value; null stays null). */
function textOf(column: PgColumn, value: unknown): string | null {
  return value === null || value === undefined ? null : asText(column.mapToDriverValue(value))
}
