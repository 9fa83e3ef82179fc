import { drizzle } from 'drizzle-orm/node-postgres'
import pg from 'pg'
import { addressOf, DatabaseOpenError, reasonOf } from './open-error'
import * as schema from './schema'
import type { Db } from './types'

export interface NodePostgresConnection {
  db: Db
  close(): Promise<void>
}

/** How long the first connection may take before the start says the database does not answer. */
const CONNECT_TIMEOUT_MS = 10_000
/**
 * Once running, how long a statement waits for a connection of the pool (a free one, or a new one
 * being made) before it fails: a database that went away (stopped, restarting, unreachable) then
 * answers a request 503 `service_unavailable` within this, rather than holding it until the
 * client gives up; a pool busy with a burst hands its connections on within much less.
 */
export const POOL_CONNECT_TIMEOUT_MS = 5_000

/**
 * PostgreSQL over TCP through node-postgres (`pg`): a pool of `max` connections, Drizzle's
 * node-postgres driver, the same statements and transactions as the Neon driver (both read rows
 * with pg-types: int8 and numeric as text, json parsed; Drizzle reads timestamps as text itself).
 * Node only. A first connection is made before the pool is answered: a database that cannot be
 * opened is a DatabaseOpenError naming its host, port and the driver's reason, not a hang or a
 * failure of the first query.
 */
export async function openNodePostgres(options: {
  url: string
  max?: number
  connectTimeoutMs?: number
}): Promise<NodePostgresConnection> {
  const connectionString = await checkedConnectionString(options.url, options.connectTimeoutMs ?? CONNECT_TIMEOUT_MS)
  return nodePostgresPool({ connectionString, max: options.max ?? 10 })
}

/**
 * The pool behind `openNodePostgres`, without its first connection (tests point it at a database
 * that is not there). A connection is waited for at most `connectTimeoutMs` (POOL_CONNECT_TIMEOUT_MS).
 */
export function nodePostgresPool(options: {
  connectionString: string
  max: number
  connectTimeoutMs?: number
}): NodePostgresConnection {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max,
    keepAlive: true,
    connectionTimeoutMillis: options.connectTimeoutMs ?? POOL_CONNECT_TIMEOUT_MS,
  })
  // An idle client that drops (server restart, network gone) must not crash the process.
  pool.on('error', () => {})
  // Nor one in use: the pool listens to a client only while it is idle, so a connection dropped
  // under a transaction would emit an unheard 'error' (an uncaught exception). Its queries fail
  // all the same, and the pool discards it when it is released.
  pool.on('connect', (client) => client.on('error', () => {}))
  const db = drizzle({ client: pool, schema }) as unknown as Db
  return { db, close: () => pool.end() }
}

/**
 * The URL's `sslmode` with libpq's meaning, as `psql` and most PostgreSQL tools read it (pg 8 reads
 * `require` and `verify-ca` as `verify-full`):
 * - `disable`: no TLS.
 * - `require`: TLS, the server's certificate not checked (encrypted, not authenticated); with
 *   `sslrootcert=<file>` as `verify-ca`.
 * - `verify-ca`: TLS, the certificate signed by the CA of `sslrootcert=<file>` (required).
 * - `verify-full`: TLS, the certificate signed by a trusted CA (Node's, or `sslrootcert`) and naming the host.
 * - `prefer` (libpq's default), `allow`: TLS without a check where the server offers it, else none;
 *   `prefer` tries TLS first, `allow` last. The first connection decides for the whole pool.
 * - none: no TLS.
 * Answers the connection string the pool uses: the URL with `uselibpqcompat=true`, or for
 * `prefer`/`allow` the mode the first connection made.
 */
async function checkedConnectionString(url: string, timeoutMs: number): Promise<string> {
  const parsed = parseUrl(url)
  const mode = parsed?.searchParams.get('sslmode')
  if (!parsed || !mode || parsed.searchParams.has('uselibpqcompat')) {
    await probe(url, timeoutMs)
    return url
  }
  const withMode = (sslmode: string) => {
    const next = new URL(parsed.href)
    next.searchParams.set('sslmode', sslmode)
    next.searchParams.set('uselibpqcompat', 'true')
    return next.href
  }
  const tries = mode === 'prefer' ? ['require', 'disable'] : mode === 'allow' ? ['disable', 'require'] : [mode]
  for (const [i, sslmode] of tries.entries()) {
    const candidate = withMode(sslmode)
    try {
      await probe(candidate, timeoutMs)
      return candidate
    } catch (err) {
      if (i === tries.length - 1) throw err
    }
  }
  throw new Error('unreachable')
}

function parseUrl(url: string): URL | null {
  try {
    return new URL(url)
  } catch {
    return null
  }
}

/**
 * One connection to the database, closed at once; a failure is a DatabaseOpenError with the driver's
 * reason (the driver has closed the failed connection itself).
 */
async function probe(connectionString: string, timeoutMs: number): Promise<void> {
  let client: pg.Client | null = null
  try {
    client = new pg.Client({ connectionString, connectionTimeoutMillis: timeoutMs })
    // A connection that breaks after it was made is reported by connect() or by end(), not as an 'error' event.
    client.on('error', () => {})
    await client.connect()
  } catch (err) {
    // The client's own reading of the URL (pg's defaults filled in), unless the URL could not be read.
    const address = client
      ? { host: client.host, port: client.port, database: client.database ?? '', user: client.user ?? '' }
      : addressOf(connectionString)
    throw new DatabaseOpenError(address, reasonOf(err, client?.password ?? parseUrl(connectionString)?.password))
  }
  await client.end().catch(() => {})
}
