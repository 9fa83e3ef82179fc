/**
 * `sslmode` in DATABASE_URL means on Node what it means to `psql` (libpq), against a PostgreSQL
 * behind a TLS front with a self-signed certificate for another host name (test/support/
 * tls-postgres-front.ts): the case where `require` (encrypted, certificate not checked) and
 * `verify-full` (the certificate checked) part. Server mode only (vitest.config.ts).
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { parseNodeConfig } from '../../src/config'
import { openNodeDatabase, type NodeDatabase } from '../../src/runtime/node-database'
import { startTlsPostgresFront, type TlsPostgresFront } from '../support/tls-postgres-front'

const server = new URL(inject('databaseUrl')!)
let front: TlsPostgresFront
const opened: NodeDatabase[] = []
beforeAll(async () => {
  front = await startTlsPostgresFront({ pgHost: server.hostname, pgPort: Number(server.port || 5432) })
})
afterAll(async () => {
  for (const database of opened) await database.close()
  await front.close()
})

/** The run's database through the TLS front, with these URL parameters. */
function throughFront(params: Record<string, string>): string {
  const url = new URL(server)
  url.hostname = '127.0.0.1'
  url.port = String(front.port)
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value)
  return url.toString()
}

async function open(params: Record<string, string>): Promise<NodeDatabase> {
  const config = parseNodeConfig({ DATA_DIR: '/nonexistent', LOG_LEVEL: 'silent', DATABASE_URL: throughFront(params) })
  const database = await openNodeDatabase(config)
  opened.push(database)
  return database
}

describe('sslmode on Node', () => {
  it('require: encrypts without checking the certificate, as psql does', async () => {
    const before = front.handshakes()
    const { db } = await open({ sslmode: 'require' })
    const result = (await db.execute(sql`select 1 as one`)) as unknown as { rows: unknown[] }
    expect(result.rows).toEqual([{ one: 1 }])
    expect(front.handshakes()).toBeGreaterThan(before)
  })

  it('prefer: encrypts where the server offers TLS', async () => {
    const before = front.handshakes()
    await open({ sslmode: 'prefer' })
    expect(front.handshakes()).toBeGreaterThan(before)
  })

  it('verify-full: refuses a certificate no trusted CA signed', async () => {
    await expect(open({ sslmode: 'verify-full' })).rejects.toThrow(
      `at 127.0.0.1:${front.port} as user "postgres": self-signed certificate.`,
    )
  })

  it('verify-full with sslrootcert: refuses a certificate for another host name', async () => {
    await expect(open({ sslmode: 'verify-full', sslrootcert: front.certFile })).rejects.toThrow(
      /at 127\.0\.0\.1:\d+ as user "postgres": Hostname\/IP does not match certificate's altnames/,
    )
  })

  it('verify-ca with sslrootcert: accepts the certificate that CA signed, whatever host it names', async () => {
    const before = front.handshakes()
    await open({ sslmode: 'verify-ca', sslrootcert: front.certFile })
    expect(front.handshakes()).toBeGreaterThan(before)
  })

  it('verify-ca without sslrootcert: says the CA is needed', async () => {
    await expect(open({ sslmode: 'verify-ca' })).rejects.toThrow(/verify-ca requires specifying a CA with sslrootcert/)
  })
})
