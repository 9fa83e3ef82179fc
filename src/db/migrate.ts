import { fileURLToPath } from 'node:url'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import { migrate as migrateNeon } from 'drizzle-orm/neon-serverless/migrator'
import type { Db } from './types'

/** The committed SQL migrations (drizzle-kit output). */
export const MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations', import.meta.url))

/** Applies pending migrations (Node only: reads the folder). */
export async function applyMigrations(db: Db, driver: 'pglite' | 'neon'): Promise<void> {
  const run = driver === 'pglite' ? migratePglite : migrateNeon
  await run(db as never, { migrationsFolder: MIGRATIONS_DIR })
}
