/**
 * A database that cannot be reached (stopped, restarting, its connections cut, the host gone): the
 * API answers 503 `service_unavailable` with `Retry-After` and `retryAfterSec` in the body, in words,
 * never a 500 and never a hang; `GET /health` says the database is unavailable. The app runs on a
 * node-postgres pool (the one `npm start` uses with DATABASE_URL) pointed at a port nobody listens
 * on, or at a server that accepts connections and never answers. Runs in both passes: no
 * PostgreSQL is needed to be absent.
 */
import { createServer, type Server, type Socket } from 'node:net'
import { DrizzleQueryError } from 'drizzle-orm/errors'
import { afterAll, describe, expect, it } from 'vitest'
import { nodePostgresPool } from '../../src/db/node-postgres'
import { DATABASE_RETRY_AFTER_SEC, isDatabaseUnavailable } from '../../src/db/unavailable'
import { toAppError } from '../../src/http/error-response'
import { createTestApp } from '../support/test-app'

/** A TCP server: closed at once (`refuse`), or holding every connection without a word. */
async function listen(onConnection: (socket: Socket) => void): Promise<{ server: Server; port: number }> {
  const server = createServer(onConnection)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, port: (server.address() as { port: number }).port }
}

const held: Socket[] = []
const servers: Server[] = []
afterAll(() => {
  for (const s of held) s.destroy()
  for (const s of servers) s.close()
})

/** A port that refused connections a moment ago (listened on, then closed). */
async function closedPort(): Promise<number> {
  const { server, port } = await listen(() => {})
  await new Promise((resolve) => server.close(resolve))
  return port
}

const appOn = async (port: number, connectTimeoutMs?: number) => {
  const pool = nodePostgresPool({
    connectionString: `postgres://postgres@127.0.0.1:${port}/postgres`,
    max: 2,
    ...(connectTimeoutMs ? { connectTimeoutMs } : {}),
  })
  return createTestApp({ parts: (parts) => ({ ...parts, db: pool.db }) })
}

describe('the database unavailable', () => {
  it('refused: the API answers 503 service_unavailable with Retry-After and retryAfterSec at once', async () => {
    const t = await appOn(await closedPort())
    for (const [method, path, body] of [
      ['GET', '/v1/posts', undefined],
      ['POST', '/v1/posts', { type: 'IMAGE', accountIds: ['acc_x'], mediaIds: [], action: 'draft', caption: 'x' }],
      ['GET', '/v1/me', undefined],
    ] as const) {
      const started = performance.now()
      const res = await t.call(method, path, { body })
      expect(res.status, `${method} ${path}`).toBe(503)
      expect(performance.now() - started).toBeLessThan(3000)
      expect(res.headers.get('retry-after')).toBe(String(DATABASE_RETRY_AFTER_SEC))
      expect(res.headers.get('x-request-id')).toBeTruthy()
      const answer = (await res.json()) as { error: Record<string, unknown> }
      expect(answer.error).toEqual({
        code: 'service_unavailable',
        message: `The database is unavailable; retry in ${DATABASE_RETRY_AFTER_SEC} s.`,
        requestId: res.headers.get('x-request-id'),
        retryAfterSec: DATABASE_RETRY_AFTER_SEC,
      })
    }
    const health = await t.call('GET', '/health', { token: null })
    expect(health.status).toBe(503)
    expect(((await health.json()) as { database: unknown }).database).toEqual({
      status: 'unavailable',
      latencyMs: null,
      reason: 'the database cannot be reached',
    })
  })

  it('a server that takes the connection and never answers: 503 once the pool gives up waiting, not a hang', async () => {
    const { server, port } = await listen((socket) => held.push(socket))
    servers.push(server)
    const t = await appOn(port, 300)
    const started = performance.now()
    const res = await t.call('GET', '/v1/posts')
    const ms = performance.now() - started
    expect(res.status).toBe(503)
    expect(ms).toBeGreaterThanOrEqual(250)
    expect(ms).toBeLessThan(5000)
    expect(((await res.json()) as { error: { retryAfterSec: number } }).error.retryAfterSec).toBe(
      DATABASE_RETRY_AFTER_SEC,
    )
  })

  it("classifies the drivers' words for a connection gone, and nothing else", () => {
    const pgError = (code: string, message = 'x') => Object.assign(new Error(message), { code })
    const unavailable = [
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      new AggregateError([pgError('ECONNREFUSED'), pgError('ECONNREFUSED')], ''),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      pgError('57P01', 'terminating connection due to administrator command'),
      pgError('57P03', 'the database system is shutting down'),
      pgError('08006'),
      new DrizzleQueryError('select 1', [], pgError('57P01') as Error),
    ]
    for (const err of unavailable) {
      expect(isDatabaseUnavailable(err), String(err)).toBe(true)
      expect(toAppError(err)).toMatchObject({ code: 'service_unavailable', retryAfterSec: DATABASE_RETRY_AFTER_SEC })
    }
    for (const err of [pgError('42601', 'syntax error'), pgError('23505'), new Error('boom'), null, 'text']) {
      expect(isDatabaseUnavailable(err), String(err)).toBe(false)
      expect(toAppError(err).code).toBe('internal_error')
    }
  })
})
