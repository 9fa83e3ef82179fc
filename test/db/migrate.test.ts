import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { migrate } from 'drizzle-orm/pglite/migrator'
import { afterAll, describe, expect, it } from 'vitest'
import { applyMigrations, journal, MIGRATIONS_DIR } from '../../src/db/migrate'
import { openPglite } from '../../src/db/pglite'

/** A copy of the migrations folder whose journal ends after its first `count` entries. */
function firstMigrations(count: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'sps-migrations-'))
  cpSync(MIGRATIONS_DIR, dir, { recursive: true })
  const file = join(dir, 'meta', '_journal.json')
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as { entries: unknown[] }
  writeFileSync(file, JSON.stringify({ ...parsed, entries: parsed.entries.slice(0, count) }))
  return dir
}

describe('applyMigrations', () => {
  const folders: string[] = []
  afterAll(() => {
    for (const dir of folders) rmSync(dir, { recursive: true, force: true })
  })

  it('brings a database made by an older release up to date, naming exactly the migrations it applied', async () => {
    const all = journal()
    expect(all.length).toBeGreaterThan(3)
    const older = firstMigrations(3)
    folders.push(older)
    const conn = await openPglite({ dataDir: null })
    try {
      await migrate(conn.db as never, { migrationsFolder: older })
      expect(await applyMigrations(conn.db, 'pglite')).toEqual(all.slice(3).map((m) => m.tag))
      // The newest migration's work is there, and a second opening has nothing left to apply.
      const recorded = await conn.db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`)
      expect((recorded as unknown as { rows: Array<{ n: number }> }).rows[0]!.n).toBe(all.length)
      expect(await applyMigrations(conn.db, 'pglite')).toEqual([])
    } finally {
      await conn.close()
    }
  })
})
