import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { NodeConfig } from '../config'
import { applyMigrations } from '../db/migrate'
import { checkOpens } from '../db/open-error'
import { openPglite } from '../db/pglite'
import { copyTemplate, holdsDatabase, migratedTemplate } from '../db/pglite-template'
import type { Db } from '../db/types'
import { generateCredentialsKey } from '../infra/credential-cipher'
import type { Logger } from '../infra/logger'
import { lockDataDir } from './data-dir-lock'

/**
 * The Node runtime's database and credentials key, on their own so the CLI opens them without
 * loading the HTTP app, the S3 client or the image codecs.
 */
export interface NodeDatabase {
  db: Db
  /** Which database the process runs on, for the start-up line. */
  database: 'pglite' | 'postgres'
  /** The migrations applied on opening, by name (none when it was up to date). */
  migrationsApplied: string[]
  /** Says in DATA_DIR's lock that this process is stopping (PGlite: a start meanwhile waits for it). */
  stopping(): void
  close(): Promise<void>
}

/**
 * Connections to DATABASE_URL: DATABASE_POOL_MAX, else one per four publishes the queue runs at once
 * (10 to 16). A publish holds a connection only for its statements, not while the network answers,
 * so a quarter of PUBLISH_CONCURRENCY keeps the pool from being what publishes wait on. More than 16
 * made the burst slower (docs/performance.md: 32 connections drained 10,000 targets in 19.4-22.1 s,
 * 16 in 16.5-17.8 s), as more backends than the database has cores take turns rather than work.
 */
export const databasePoolSize = (config: Pick<NodeConfig, 'DATABASE_POOL_MAX' | 'PUBLISH_CONCURRENCY'>): number =>
  config.DATABASE_POOL_MAX ?? Math.min(16, Math.max(10, Math.ceil(config.PUBLISH_CONCURRENCY / 4)))

/**
 * The database of the Node runtime, migrated: DATABASE_URL through node-postgres (through the Neon
 * driver when NEON_WS_PROXY is set too), else PGlite under DATA_DIR. A PostgreSQL that cannot be
 * opened is a DatabaseOpenError naming its host, port and the driver's reason.
 */
export async function openNodeDatabase(config: NodeConfig): Promise<NodeDatabase> {
  if (config.DATABASE_URL) {
    const max = databasePoolSize(config)
    const conn = config.NEON_WS_PROXY
      ? await openNeonOnNode(config.DATABASE_URL, config.NEON_WS_PROXY, max)
      : // Loaded only for PostgreSQL: the embedded default's start does not pay for the driver.
        await import('../db/node-postgres').then((m) => m.openNodePostgres({ url: config.DATABASE_URL!, max }))
    try {
      const migrationsApplied = config.NEON_WS_PROXY
        ? await applyMigrations(conn.db, 'neon')
        : await import('../db/node-postgres-migrate').then((m) =>
            m.migrateNodePostgresExclusively(config.DATABASE_URL!),
          )
      return { db: conn.db, database: 'postgres', migrationsApplied, stopping: () => {}, close: conn.close }
    } catch (err) {
      await conn.close().catch(() => {})
      throw err
    }
  }
  const dir = join(config.DATA_DIR, 'pg')
  mkdirSync(dir, { recursive: true })
  const lock = await lockDataDir(dir)
  try {
    // A new directory starts as a copy of a migrated empty database (seconds faster than initdb), or
    // where the template cannot be kept, as a database made in place by initdb and the migrations.
    const template = holdsDatabase(dir) ? null : await migratedTemplate()
    if (template) copyTemplate(template, dir)
    const conn = await openPglite({ dataDir: dir })
    const migrationsApplied = await applyMigrations(conn.db, 'pglite', { fromTemplate: template !== null })
    return {
      db: conn.db,
      database: 'pglite',
      migrationsApplied,
      stopping: lock.stopping,
      close: () => conn.close().finally(lock.release),
    }
  } catch (err) {
    lock.release()
    throw err
  }
}

/**
 * The Worker's driver on Node, through NEON_WS_PROXY (a WebSocket-to-TCP proxy in front of a plain
 * PostgreSQL): for trying the Neon driver itself. Its first statement is the check that it opens.
 */
async function openNeonOnNode(url: string, wsProxy: string, max: number): Promise<{ db: Db; close(): Promise<void> }> {
  const [{ openNeon }, { default: ws }] = await Promise.all([import('../db/neon'), import('ws')])
  const conn = openNeon({ url, wsProxy, webSocket: ws, max })
  await checkOpens(conn, url)
  return conn
}

/** What a server on a shared database is told while its credentials key is its own folder's. */
const SHARED_DATABASE_KEY_HINT =
  'with DATABASE_URL every server must have the same CREDENTIALS_KEY: a key of one DATA_DIR cannot read the credentials another server stored'

/**
 * CREDENTIALS_KEY, or for the embedded default a key generated once and kept (mode 600) under
 * DATA_DIR, so `npm start` needs no configuration and credentials survive restarts. On a shared
 * database (DATABASE_URL) a folder's key is said at every start: a second server would make its own.
 */
export function resolveCredentialsKey(config: NodeConfig, logger: Logger): string {
  if (config.CREDENTIALS_KEY) return config.CREDENTIALS_KEY
  const file = join(config.DATA_DIR, 'credentials.key')
  if (!existsSync(file)) {
    mkdirSync(config.DATA_DIR, { recursive: true })
    writeFileSync(file, `${generateCredentialsKey()}\n`, { mode: 0o600 })
    chmodSync(file, 0o600)
    logger.warn('credentials_key_generated', { file, hint: 'set CREDENTIALS_KEY in production' })
  }
  if (config.DATABASE_URL) logger.warn('credentials_key_from_data_dir', { file, hint: SHARED_DATABASE_KEY_HINT })
  return readFileSync(file, 'utf8').trim()
}
