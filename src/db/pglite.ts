import { mkdirSync } from 'node:fs'
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { drizzle } from 'drizzle-orm/pglite'
import * as schema from './schema'
import type { Db } from './types'

export interface PgliteConnection {
  db: Db
  client: PGlite
  close(): Promise<void>
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
  })
  const db = drizzle({ client, schema }) as unknown as Db
  return { db, client, close: () => client.close() }
}
