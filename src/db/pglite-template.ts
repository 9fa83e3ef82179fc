/**
 * A migrated empty embedded database, made once and kept as a gzipped dump (Node only): a new
 * DATA_DIR starts from a copy of it instead of running `initdb` and every migration, which on
 * PGlite costs seconds. Kept in node_modules/.cache under a key of the PGlite version and the
 * migrations' contents, so a new migration or another PGlite makes a new one.
 */
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { applyMigrations, MIGRATIONS_DIR } from './migrate'
import { openPglite } from './pglite'

const CACHE_DIR = join(MIGRATIONS_DIR, '..', 'node_modules', '.cache', 'sps-pglite-template')

/** The installed PGlite's version: its data directory format goes with it. */
function pgliteVersion(): string {
  let dir = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'))
  for (;;) {
    const file = join(dir, 'package.json')
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string }
      if (pkg.name === '@electric-sql/pglite') return pkg.version ?? 'unknown'
    }
    const up = dirname(dir)
    if (up === dir) return 'unknown'
    dir = up
  }
}

/** Names the template by what it is made of: the PGlite version and every file of the migrations folder. */
export function templateKey(): string {
  const hash = createHash('sha256').update(pgliteVersion())
  const names = readdirSync(MIGRATIONS_DIR, { recursive: true }).map(String).sort()
  for (const name of names) {
    const path = join(MIGRATIONS_DIR, name)
    if (statSync(path).isFile()) hash.update(`\0${name}\0`).update(readFileSync(path))
  }
  return hash.digest('hex').slice(0, 20)
}

/** The template's file (made by `migratedTemplate` when missing). */
export const templateFile = () => join(CACHE_DIR, `${templateKey()}.tar.gz`)

/**
 * The dump of a migrated empty database: read from the cache, or made in memory and cached
 * (written to a temporary name then renamed, so concurrent starts never read half a file). A cache
 * that cannot be written only costs the next start the same work again.
 */
export async function migratedTemplate(): Promise<Blob> {
  const file = templateFile()
  if (existsSync(file)) return new Blob([readFileSync(file)])
  const conn = await openPglite({ dataDir: null })
  try {
    await applyMigrations(conn.db, 'pglite')
    const dump = await conn.client.dumpDataDir('gzip')
    const tmp = `${file}.${process.pid}.tmp`
    try {
      mkdirSync(CACHE_DIR, { recursive: true })
      writeFileSync(tmp, Buffer.from(await dump.arrayBuffer()))
      renameSync(tmp, file)
    } catch {
      rmSync(tmp, { force: true })
    }
    return dump
  } finally {
    await conn.close()
  }
}
