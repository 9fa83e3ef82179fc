/**
 * A DATABASE_URL the start cannot open: the message names the host and port and the driver's own
 * reason, never the password. A closed port on this machine needs no server, so this runs embedded
 * too (node-postgres.postgres.test.ts has the reasons a real server gives).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { parseNodeConfig } from '../../src/config'
import { DatabaseOpenError } from '../../src/db/open-error'
import { openNodeDatabase } from '../../src/runtime/node-database'
import { startServer } from '../support/processes'

const PASSWORD = 'hunter2-secret'
const dataDir = mkdtempSync(join(tmpdir(), 'sps-db-open-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

/** A port nothing listens on: one the system just gave out and took back. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

const openUrl = (url: string) =>
  openNodeDatabase(parseNodeConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', DATABASE_URL: url }))

describe('a database the start cannot open', () => {
  it('is a DatabaseOpenError naming the host, the port and ECONNREFUSED for a closed port, without the password', async () => {
    const port = await closedPort()
    const err = await openUrl(`postgres://app:${PASSWORD}@127.0.0.1:${port}/social`).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(DatabaseOpenError)
    const message = (err as Error).message
    expect(message).toBe(
      `Cannot open the database "social" at 127.0.0.1:${port} as user "app": connect ECONNREFUSED 127.0.0.1:${port}. ` +
        'Check DATABASE_URL (host, port, database, user, sslmode), and that PostgreSQL runs there and lets this user in.',
    )
    expect(message).not.toContain(PASSWORD)
  })

  it('says the reason for each address a host name has (localhost: IPv4 and IPv6 both refused)', async () => {
    const port = await closedPort()
    const err = await openUrl(`postgres://app:${PASSWORD}@localhost:${port}/social`).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(DatabaseOpenError)
    expect((err as Error).message).toMatch(
      new RegExp(`^Cannot open the database "social" at localhost:${port} as user "app": connect ECONNREFUSED`),
    )
    expect((err as Error).message).not.toContain(PASSWORD)
  })

  it('stops `npm start` with that one line (exit code 1), not a stack trace', { timeout: 180_000 }, async () => {
    const port = await closedPort()
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      NODE_NO_WARNINGS: '1',
      DATABASE_URL: `postgres://app:${PASSWORD}@127.0.0.1:${port}/social`,
    }
    const failure = await startServer(env).then(
      async (server) => {
        await server.stop()
        return new Error('the server started')
      },
      (e: Error) => e,
    )
    const output = failure.message.replace(/^server exited with (\d+):\n/, '$1 ')
    expect(output.trim()).toBe(
      `1 Cannot open the database "social" at 127.0.0.1:${port} as user "app": connect ECONNREFUSED 127.0.0.1:${port}. ` +
        'Check DATABASE_URL (host, port, database, user, sslmode), and that PostgreSQL runs there and lets this user in.',
    )
  })
})
