/**
 * A migrated empty embedded database, made once and kept as a folder (Node only): a new DATA_DIR
 * starts as a copy of it instead of running `initdb` and every migration, which on PGlite costs
 * seconds. Kept in node_modules/.cache under a key of the PGlite version and the migrations'
 * contents, so a new migration or another PGlite makes a new one.
 *
 * Copied file by file rather than restored from a dump: a new database opened from the dump, which
 * PGlite unpacks itself, took 2.4 s on the development machine; from the copy it takes 0.8-0.9 s.
 */
import { createHash } from 'node:crypto'
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, relative } from 'node:path'
import type { PGlite } from '@electric-sql/pglite'
import { applyMigrations, MIGRATIONS_DIR } from './migrate'
import { openPglite } from './pglite'

const CACHE_DIR = join(MIGRATIONS_DIR, '..', 'node_modules', '.cache', 'sps-pglite-template')

/**
 * The file PostgreSQL's folder is recognised by: copied last, so a copy cut short leaves a folder
 * that is not yet a database, and the next start copies the template again.
 */
const MARKER = 'PG_VERSION'

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

/** How a template is made (a folder, without PostgreSQL's template databases): a new way makes new templates. */
const TEMPLATE_LAYOUT = 'folder without template databases'

/** Names the template by what it is made of: the PGlite version, how it is made and every migration file. */
export function templateKey(): string {
  const hash = createHash('sha256').update(`${pgliteVersion()}\0${TEMPLATE_LAYOUT}`)
  const names = readdirSync(MIGRATIONS_DIR, { recursive: true }).map(String).sort()
  for (const name of names) {
    const path = join(MIGRATIONS_DIR, name)
    if (statSync(path).isFile()) hash.update(`\0${name}\0`).update(readFileSync(path))
  }
  return hash.digest('hex').slice(0, 20)
}

/** The template's folder (made by `migratedTemplate` when missing). */
export const templateDir = (cacheDir = CACHE_DIR) => join(cacheDir, templateKey())

/** A folder holds a database: PostgreSQL's version file is there. */
export const holdsDatabase = (dir: string) => existsSync(join(dir, MARKER))

/**
 * The folder of a migrated empty database: the cached one, or made now (initdb and every migration
 * in a temporary folder, closed, then renamed into place, so a concurrent start never sees half of
 * it). Null when the cache cannot be written: the caller then makes its database in place.
 */
export async function migratedTemplate(cacheDir = CACHE_DIR): Promise<string | null> {
  const dir = templateDir(cacheDir)
  if (holdsDatabase(dir)) return dir
  const tmp = `${dir}.${process.pid}.tmp`
  removeAbandonedBuilds(cacheDir)
  try {
    rmSync(tmp, { recursive: true, force: true })
    mkdirSync(tmp, { recursive: true })
  } catch {
    return null
  }
  try {
    const conn = await openPglite({ dataDir: tmp })
    try {
      await applyMigrations(conn.db, 'pglite')
      await dropTemplateDatabases(conn.client)
    } finally {
      await conn.close()
    }
    try {
      renameSync(tmp, dir)
    } catch (err) {
      // Another start renamed its own first: that one is the template.
      if (!holdsDatabase(dir)) throw err
    }
    return dir
  } finally {
    rmSync(tmp, { recursive: true, force: true })
  }
}

/** Temporary folders older than this were left by a start that stopped while making a template. */
const ABANDONED_AFTER_MS = 10 * 60_000

/** Removes what starts stopped mid-build left behind (best effort: it only costs disk space). */
function removeAbandonedBuilds(cacheDir: string): void {
  try {
    for (const name of readdirSync(cacheDir)) {
      const path = join(cacheDir, name)
      if (name.endsWith('.tmp') && Date.now() - statSync(path).mtimeMs > ABANDONED_AFTER_MS)
        rmSync(path, { recursive: true, force: true })
    }
  } catch {
    // A cache that cannot be read or tidied is made again or left as it is.
  }
}

/**
 * PostgreSQL's own template databases, which only CREATE DATABASE reads: PGlite opens `postgres`, the
 * one database the service uses, and never makes another. Dropped, they leave 535 files to copy
 * instead of 1,135; on this disk the number of files, not their size, is what a copy costs.
 */
async function dropTemplateDatabases(client: PGlite): Promise<void> {
  await client.exec(`update pg_database set datistemplate = false where datname in ('template0', 'template1')`)
  // One statement per query: DROP DATABASE cannot run inside the transaction of a multi-statement query.
  await client.exec('drop database template0')
  await client.exec('drop database template1')
}

/**
 * Copies the template's files into `target` (made when missing), PostgreSQL's version file last:
 * until that is there, the folder is not a database and a later start copies the template again.
 */
export function copyTemplate(template: string, target: string): void {
  const entries = readdirSync(template, { recursive: true, withFileTypes: true })
  const files: string[] = []
  mkdirSync(target, { recursive: true })
  for (const entry of entries) {
    const path = relative(template, join(entry.parentPath ?? entry.path, entry.name))
    if (entry.isDirectory()) mkdirSync(join(target, path), { recursive: true })
    else if (entry.isFile() && path !== MARKER) files.push(path)
  }
  for (const path of files) copyFileSync(join(template, path), join(target, path))
  copyFileSync(join(template, MARKER), join(target, MARKER))
}
