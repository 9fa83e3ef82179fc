import { mkdirSync } from 'node:fs'
import { PGlite, types } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { drizzle } from 'drizzle-orm/pglite'
import { keepPreparedStatements } from './prepared'
import * as schema from './schema'
import type { Db } from './types'

export interface PgliteConnection {
  db: Db
  client: PGlite
  close(): Promise<void>
}

const keepText = (value: string) => value

/**
 * The types Drizzle reads as text from PGlite (it maps them itself): timestamps, intervals, dates
 * and their arrays, and numeric arrays. Drizzle passes these parsers with every statement, and PGlite
 * then copies its whole table of parsers (about 350 entries) per statement, about 0.15 ms each; set
 * on the instance once instead, the same values come back without that copy.
 */
export const DRIZZLE_TEXT_TYPES: Record<number, (value: string) => string> = {
  [types.TIMESTAMP]: keepText,
  [types.TIMESTAMPTZ]: keepText,
  [types.INTERVAL]: keepText,
  [types.DATE]: keepText,
  1231: keepText, // numeric[]
  1115: keepText, // timestamp[]
  1185: keepText, // timestamptz[]
  1187: keepText, // interval[]
  1182: keepText, // date[]
}

/**
 * PGlite's page cache. Its default (128 MB) is zeroed page by page as PostgreSQL starts, about
 * 0.1 s of every start here (seconds on a loaded machine), while one process of ours rarely has
 * more than a few thousand pages worth keeping: the operating system caches the data files too.
 */
const SHARED_BUFFERS = '32MB'

interface QueryOptions {
  rowMode?: 'array' | 'object'
  parsers?: Record<number, unknown>
}

/** The part of PGlite (or of one of its transactions) Drizzle's driver calls. */
interface Queryable {
  query(text: string, params?: unknown[], options?: QueryOptions): Promise<unknown>
  transaction?<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>
}

/**
 * PGlite as Drizzle sees it: statements go through without the per-statement parsers when the
 * instance (`parsers`, PGlite's table) already reads every one of those types with the same
 * function; any other parser is passed on as given.
 */
export function withInstanceParsers(target: Queryable, parsers: Record<number, unknown>): Queryable {
  const covered = (given: Record<number, unknown>) =>
    Object.keys(given).every((oid) => {
      const type = Number(oid)
      return type in DRIZZLE_TEXT_TYPES && parsers[type] === DRIZZLE_TEXT_TYPES[type]
    })
  return {
    query: (text, params, options) =>
      target.query(
        text,
        params,
        options?.parsers && covered(options.parsers) ? { rowMode: options.rowMode ?? 'object' } : options,
      ),
    transaction: (fn) => {
      if (!target.transaction) throw new Error('transactions do not nest in PGlite')
      return target.transaction((tx) => fn(withInstanceParsers(tx, parsers)))
    },
  }
}

/** Embedded PostgreSQL (Node only): persistent under `dataDir`, or in memory when it is null. */
export async function openPglite(options: {
  dataDir: string | null
  loadDataDir?: Blob | File
}): Promise<PgliteConnection> {
  // PGlite's own mkdir is not recursive.
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true })
  const client = await PGlite.create({
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    extensions: { pg_trgm },
    parsers: DRIZZLE_TEXT_TYPES,
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${SHARED_BUFFERS}`],
  })
  // PGlite sets a parser for every array type as it opens (the elements parsed, the array made a list),
  // over those given at creation: the arrays Drizzle reads as text are set again.
  Object.assign(client.parsers, DRIZZLE_TEXT_TYPES)
  const db = drizzle({
    client: withInstanceParsers(client, client.parsers) as unknown as PGlite,
    schema,
  }) as unknown as Db
  keepPreparedStatements(db)
  return { db, client, close: () => client.close() }
}
