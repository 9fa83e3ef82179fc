import { sql } from 'drizzle-orm'
import { applyMigrations } from './migrate'
import { openNodePostgres } from './node-postgres'

/**
 * Applies pending migrations over a connection of its own that holds a session advisory lock while it
 * migrates: servers started together on one database (or a `db migrate` beside a start) migrate one at a
 * time, and those after the first find the database up to date, where each would otherwise run the same
 * migration and all but one would fail on what the first created. Answers the names it applied.
 */
export async function migrateNodePostgresExclusively(url: string): Promise<string[]> {
  const conn = await openNodePostgres({ url, max: 1 })
  try {
    await conn.db.execute(sql`select pg_advisory_lock(hashtext('sps:migrations'))`)
    return await applyMigrations(conn.db, 'node-postgres')
  } finally {
    // Closing the session lets the lock go too; unlocking first frees the next server at once.
    await conn.db.execute(sql`select pg_advisory_unlock(hashtext('sps:migrations'))`).catch(() => {})
    await conn.close()
  }
}
