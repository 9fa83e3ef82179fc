import { sql } from 'drizzle-orm'
import type { Db } from './types'

/** Where a database is, as a start-up message names it: never the password. */
export interface DatabaseAddress {
  host: string
  port: number
  database: string
  user: string
}

/**
 * A database the process could not open: its address and the driver's own reason (`connect
 * ECONNREFUSED 127.0.0.1:5432`, `password authentication failed for user "app"`, `database "x" does
 * not exist`, `The server does not support SSL connections`). The message is what a start prints.
 */
export class DatabaseOpenError extends Error {
  constructor(
    readonly address: DatabaseAddress,
    readonly reason: string,
  ) {
    super(
      `Cannot open the database "${address.database}" at ${address.host}:${address.port} as user "${address.user}": ` +
        `${reason.replace(/\.+$/, '')}. Check DATABASE_URL (host, port, database, user, sslmode), and that ` +
        'PostgreSQL runs there and lets this user in.',
    )
    this.name = 'DatabaseOpenError'
  }
}

/** A connection URL's address, read from the URL alone (PostgreSQL's defaults where it says nothing). */
export function addressOf(url: string): DatabaseAddress {
  try {
    const parsed = new URL(url)
    return {
      host: parsed.searchParams.get('host') ?? (parsed.hostname.replace(/^\[(.+)\]$/, '$1') || 'localhost'),
      port: Number(parsed.searchParams.get('port') ?? (parsed.port || 5432)),
      database: decodeURIComponent(parsed.pathname.slice(1)) || decodeURIComponent(parsed.username) || 'postgres',
      user: decodeURIComponent(parsed.username) || 'postgres',
    }
  } catch {
    return { host: '(DATABASE_URL is not a URL)', port: 5432, database: '', user: '' }
  }
}

/**
 * The driver's reason for a failure, in its own words, with the password (when it has one of 3
 * characters or more) blotted out should the text ever carry it. Node's dual-stack connect fails
 * with an AggregateError whose own message is empty: each address's reason is said.
 */
export function reasonOf(err: unknown, password: string | null | undefined): string {
  const e = err as { message?: string; code?: string; errors?: unknown[] }
  const parts = Array.isArray(e?.errors) && e.errors.length > 0 ? e.errors.map((x) => reasonOf(x, null)) : []
  const text = [...new Set(parts)].join('; ') || e?.message || e?.code || String(err)
  return password && password.length >= 3 ? text.split(password).join('***') : text
}

/**
 * Runs a first statement on `conn` (opened on `url`): a failure closes it and is a DatabaseOpenError.
 * For a driver that connects only when a statement needs it (the Neon driver).
 */
export async function checkOpens(conn: { db: Db; close(): Promise<void> }, url: string): Promise<void> {
  try {
    await conn.db.execute(sql`select 1`)
  } catch (err) {
    await conn.close().catch(() => {})
    throw new DatabaseOpenError(addressOf(url), reasonOf(err, passwordOf(url)))
  }
}

function passwordOf(url: string): string | null {
  try {
    return decodeURIComponent(new URL(url).password)
  } catch {
    return null
  }
}
