import { applyMigrations } from '../../src/db/migrate'
import { openNodePostgres } from '../../src/db/node-postgres'
import { openPglite } from '../../src/db/pglite'
import { startUpstashRestShim } from './upstash-rest-shim'

export interface TestServices {
  pgliteSnapshot: Blob | null
  databaseUrl: string | null
  upstashUrl: string | null
  upstashToken: string | null
  close(): Promise<void>
}

/**
 * The outside services tests run against. With a server URL: a fresh, migrated database on that
 * PostgreSQL (dropped afterwards), reached as the Node runtime reaches it (node-postgres), and an Upstash REST stand-in in
 * front of that Redis. Without: one migrated PGlite, snapshotted so every test file clones it fast.
 */
export async function startTestServices(options: {
  databaseUrl?: string | undefined
  redisUrl?: string | undefined
}): Promise<TestServices> {
  const closers: Array<() => Promise<void>> = []
  const result: TestServices = {
    pgliteSnapshot: null,
    databaseUrl: null,
    upstashUrl: null,
    upstashToken: null,
    close: async () => {
      for (const close of closers.reverse()) await close()
    },
  }
  if (options.databaseUrl) {
    const admin = await openNodePostgres({ url: options.databaseUrl, max: 1 })
    const name = `sps_test_${Date.now()}_${process.pid}`
    await admin.db.execute(`CREATE DATABASE "${name}"`)
    closers.push(async () => {
      await admin.db.execute(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)
      await admin.close()
    })
    const testUrl = new URL(options.databaseUrl)
    testUrl.pathname = `/${name}`
    const conn = await openNodePostgres({ url: testUrl.toString(), max: 1 })
    await applyMigrations(conn.db, 'node-postgres')
    await conn.close()
    result.databaseUrl = testUrl.toString()
  } else {
    const conn = await openPglite({ dataDir: null })
    await applyMigrations(conn.db, 'pglite')
    result.pgliteSnapshot = await conn.client.dumpDataDir('none')
    await conn.close()
  }
  if (options.redisUrl) {
    const token = `test-${Date.now()}`
    const shim = await startUpstashRestShim({ redisUrl: options.redisUrl, token })
    closers.push(shim.close)
    result.upstashUrl = shim.url
    result.upstashToken = token
  }
  return result
}
