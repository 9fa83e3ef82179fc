import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { sql } from 'drizzle-orm'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import { migrate as migrateNeon } from 'drizzle-orm/neon-serverless/migrator'
import { migrate as migrateNodePostgres } from 'drizzle-orm/node-postgres/migrator'
import { nearestAbove } from '../lib/nearest-above'
import type { Db } from './types'

/**
 * The committed SQL migrations (drizzle-kit output): the nearest `migrations` folder with a journal
 * above this module, the project's own both from src/db/ and from the start bundle's folder (under
 * the project's node_modules/.cache).
 */
function findMigrationsDir(): string {
  const journalFile = nearestAbove(import.meta.url, join('migrations', 'meta', '_journal.json'))
  if (!journalFile) throw new Error(`no migrations folder above ${fileURLToPath(import.meta.url)}`)
  return dirname(dirname(journalFile))
}

export const MIGRATIONS_DIR = findMigrationsDir()

/** Drizzle's record of applied migrations: one row per migration, `created_at` its journal time. */
const APPLIED_TABLE = 'drizzle.__drizzle_migrations'

/** The journal time of the newest migration the database records, or 0 before any. */
async function newestApplied(db: Db): Promise<number> {
  type Rows = { rows: Array<Record<string, unknown>> }
  const table = (await db.execute(sql`select to_regclass(${APPLIED_TABLE}) is not null as "exists"`)) as unknown as Rows
  if (table.rows[0]?.exists !== true) return 0
  const newest = (await db.execute(
    sql`select coalesce(max(created_at), 0) as "at" from drizzle.__drizzle_migrations`,
  )) as unknown as Rows
  return Number(newest.rows[0]?.at ?? 0)
}

/** The journal's migrations (name and time), in order. */
export function journal(): Array<{ tag: string; when: number }> {
  const text = readFileSync(join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8')
  return (JSON.parse(text) as { entries: Array<{ tag: string; when: number }> }).entries
}

/** The driver `db` was opened with: each has Drizzle's migrator of its own (the same statements). */
export type MigrationDriver = 'pglite' | 'neon' | 'node-postgres'

const MIGRATORS = { pglite: migratePglite, neon: migrateNeon, 'node-postgres': migrateNodePostgres }

/**
 * Applies pending migrations (Node only: reads the folder); answers the names of those it applied,
 * in order (none when the database was up to date). `fromTemplate`: the database was just made
 * from a migrated template, whose migrations count as applied now. A database that already records
 * the journal's newest migration is left as it is without running the migrator (which reads and
 * hashes every migration file): Drizzle applies only migrations newer than the newest recorded, so
 * it would apply nothing.
 */
export async function applyMigrations(
  db: Db,
  driver: MigrationDriver,
  options: { fromTemplate?: boolean } = {},
): Promise<string[]> {
  const entries = journal()
  const recorded = await newestApplied(db)
  const before = options.fromTemplate ? 0 : recorded
  const upToDate = recorded >= Math.max(0, ...entries.map((m) => m.when))
  if (!upToDate) {
    const run = MIGRATORS[driver]
    await run(db as never, { migrationsFolder: MIGRATIONS_DIR })
  }
  const after = upToDate ? recorded : await newestApplied(db)
  return entries.filter((m) => m.when > before && m.when <= after).map((m) => m.tag)
}
