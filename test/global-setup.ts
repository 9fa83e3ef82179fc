import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import { buildClient } from '../bin/build-client.js'
import { startTestServices } from './support/services'

declare module 'vitest' {
  export interface ProvidedContext {
    /** Embedded mode: a migrated PGlite data dir (tar), cloned by every test file. */
    pgliteSnapshot: string | null
    /** Server mode: a fresh database on the real PostgreSQL, migrated, reached through node-postgres. */
    databaseUrl: string | null
    /** With REDIS_URL: an Upstash REST endpoint in front of the real Redis. */
    upstashUrl: string | null
    upstashToken: string | null
  }
}

/**
 * Runs once per `npm test`. With no DATABASE_URL/REDIS_URL everything is embedded (PGlite, in-memory
 * limiter); with them, tests go through the production drivers to the real servers.
 */
export default async function setup(project: TestProject) {
  // The page scripts the dashboard serves, bundled from src/dashboard/client/ (bin/build-client.js).
  await buildClient()
  const dir = mkdtempSync(join(tmpdir(), 'sps-test-'))
  const services = await startTestServices({ databaseUrl: process.env.DATABASE_URL, redisUrl: process.env.REDIS_URL })
  let snapshotPath: string | null = null
  if (services.pgliteSnapshot) {
    snapshotPath = join(dir, 'pglite.tar')
    writeFileSync(snapshotPath, Buffer.from(await services.pgliteSnapshot.arrayBuffer()))
  }
  project.provide('pgliteSnapshot', snapshotPath)
  project.provide('databaseUrl', services.databaseUrl)
  project.provide('upstashUrl', services.upstashUrl)
  project.provide('upstashToken', services.upstashToken)
  return async () => {
    await services.close()
    rmSync(dir, { recursive: true, force: true })
  }
}
