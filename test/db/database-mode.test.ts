import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { testDatabase } from '../support/database'

describe('database of the run', () => {
  it('is the real PostgreSQL server through node-postgres when DATABASE_URL is set, else embedded PGlite', async () => {
    const { db, kind } = await testDatabase()
    const result = await db.execute(sql`select version() as v`)
    const version = String((result as unknown as { rows: Array<{ v: string }> }).rows[0]!.v)
    if (process.env.DATABASE_URL) {
      expect(kind).toBe('postgres')
      expect(version).not.toMatch(/emscripten|wasm/i)
    } else {
      expect(kind).toBe('pglite')
      expect(version).toMatch(/emscripten|wasm/i)
    }
  })
})
