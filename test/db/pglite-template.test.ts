import { mkdirSync, mkdtempSync, readdirSync, rmSync, truncateSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseNodeConfig } from '../../src/config'
import { applyMigrations, journal } from '../../src/db/migrate'
import { openPglite } from '../../src/db/pglite'
import { copyTemplate, holdsDatabase, migratedTemplate } from '../../src/db/pglite-template'
import { openNodeDatabase } from '../../src/runtime/node-database'

const rows = <T>(result: unknown) => (result as { rows: T[] }).rows

describe('the template a new embedded database is copied from', () => {
  const folders: string[] = []
  const folder = (prefix: string) => {
    const dir = mkdtempSync(join(tmpdir(), prefix))
    folders.push(dir)
    return dir
  }
  let cache: string
  let template: string

  // Left beside the template by other starts: one stopped mid-build an hour ago, one building now.
  const abandoned = 'a.1.tmp'
  const building = 'b.2.tmp'

  beforeAll(async () => {
    cache = folder('sps-template-cache-')
    for (const name of [abandoned, building]) mkdirSync(join(cache, name, 'base'), { recursive: true })
    const anHourAgo = new Date(Date.now() - 3_600_000)
    utimesSync(join(cache, abandoned), anHourAgo, anHourAgo)
    template = (await migratedTemplate(cache))!
  }, 120_000)
  afterAll(() => {
    for (const dir of folders) rmSync(dir, { recursive: true, force: true })
  })

  it('is kept as one folder holding a database; what a start stopped mid-build left is removed', async () => {
    expect(holdsDatabase(template)).toBe(true)
    const kept = [basename(template), building].sort()
    expect(readdirSync(cache).sort()).toEqual(kept)
    expect(await migratedTemplate(cache)).toBe(template)
    expect(readdirSync(cache).sort()).toEqual(kept)
  })

  it('copied into a new folder, opens as an empty database with every migration applied', async () => {
    const target = folder('sps-template-copy-')
    copyTemplate(template, target)
    const conn = await openPglite({ dataDir: target })
    try {
      expect(await applyMigrations(conn.db, 'pglite')).toEqual([])
      const [workspaces] = rows<{ n: number }>(await conn.db.execute(sql`select count(*)::int as n from workspaces`))
      expect(workspaces!.n).toBe(0)
      const [plans] = rows<{ n: number }>(await conn.db.execute(sql`select count(*)::int as n from plans`))
      expect(plans!.n).toBeGreaterThan(0)
      // PostgreSQL's template databases are not copied: nothing of the service creates a database.
      const databases = rows<{ datname: string }>(await conn.db.execute(sql`select datname from pg_database`))
      expect(databases.map((d) => d.datname)).toEqual(['postgres'])
    } finally {
      await conn.close()
    }
  })

  it('after a start cut short while copying, the next start copies it again and opens a database', async () => {
    const dataDir = folder('sps-template-cut-')
    const pg = join(dataDir, 'pg')
    // What a start stopped mid-copy leaves: some files, one of them half written, and no version file.
    copyTemplate(template, pg)
    rmSync(join(pg, 'PG_VERSION'))
    truncateSync(join(pg, 'global', 'pg_control'), 100)
    expect(holdsDatabase(pg)).toBe(false)
    const database = await openNodeDatabase(parseNodeConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }))
    try {
      expect(database.migrationsApplied).toEqual(journal().map((m) => m.tag))
      const [plans] = rows<{ n: number }>(await database.db.execute(sql`select count(*)::int as n from plans`))
      expect(plans!.n).toBeGreaterThan(0)
    } finally {
      await database.close()
    }
  })

  it('is not kept where the cache cannot be written: the caller then makes its database in place', async () => {
    const notAFolder = join(folder('sps-template-file-'), 'cache')
    writeFileSync(notAFolder, '')
    expect(await migratedTemplate(notAFolder)).toBeNull()
  })
})
