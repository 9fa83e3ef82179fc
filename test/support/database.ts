import { readFileSync } from 'node:fs'
import { inject } from 'vitest'
import { openNodePostgres } from '../../src/db/node-postgres'
import { openPglite } from '../../src/db/pglite'
import type { Db } from '../../src/db/types'

let opened: Promise<{ db: Db; kind: 'pglite' | 'postgres'; close(): Promise<void> }> | null = null

/**
 * The database of this test file: the real PostgreSQL through node-postgres (as the Node runtime opens it) when the run has one,
 * else a PGlite cloned from the migrated snapshot. Tests share it and isolate by workspace.
 */
export function testDatabase() {
  if (!opened) {
    const url = inject('databaseUrl')
    opened = url
      ? openNodePostgres({ url, max: 8 }).then((c) => ({ ...c, kind: 'postgres' as const }))
      : openPglite({ dataDir: null, loadDataDir: new Blob([readFileSync(inject('pgliteSnapshot')!)]) }).then((c) => ({
          db: c.db,
          close: c.close,
          kind: 'pglite' as const,
        }))
  }
  return opened
}

export async function closeTestDatabase(): Promise<void> {
  if (!opened) return
  const current = opened
  opened = null
  await (await current).close()
}
