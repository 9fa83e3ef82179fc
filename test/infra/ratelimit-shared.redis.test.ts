/**
 * REDIS_URL on Node: rate-limiter-flexible over ioredis against the run's real Redis. Two app
 * instances, each with its own Deps and its own ioredis connection (as two processes), share the
 * API's limits and the sign-in limits; an outage in the middle and Redis coming back. Selected by
 * vitest.config.ts only when REDIS_URL is set.
 */
import net from 'node:net'
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Redis } from 'ioredis'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { createLogger } from '../../src/infra/logger'
import { createMemoryRateLimiter } from '../../src/infra/ratelimit/memory'
import { createRedisRateLimiter } from '../../src/infra/ratelimit/redis'
import { randomBase62 } from '../../src/lib/ids'
import { openRedisRateLimiter, type NodeRateLimiter } from '../../src/runtime/node-rate-limiter'
import { createUser } from '../../src/services/people/users'
import { submitSignIn } from '../support/dashboard'
import { startServer } from '../support/processes'
import { waitForRoomInCurrentMinute } from '../support/minute'
import { createTestApp, randomIp, type TestApp } from '../support/test-app'
import { until } from '../support/until'
import { checkTimes, describeRateLimiterContract } from './ratelimit-contract'

const REDIS_URL = process.env.REDIS_URL!
/** The run's own prefix (global setup gives one to the suite; this file makes its own per test). */
const runPrefix = `test:shared:${randomUUID()}`
const admin = new Redis(REDIS_URL)
const opened: NodeRateLimiter[] = []
afterEach(async () => {
  for (const limits of opened.splice(0)) await limits.close()
})
afterAll(async () => {
  await admin.quit()
})

/** The runtime's own limiter over REDIS_URL (its client options, its start-up wait), for one instance. */
async function redisLimits(url: string, prefix: string, lines: string[] = []): Promise<NodeRateLimiter> {
  const logger = createLogger('debug', (line) => lines.push(line))
  const limits = await openRedisRateLimiter(url, { prefix, logger })
  opened.push(limits)
  return limits
}

/** Two instances of the app on one database and one Redis: separate Deps, separate Redis connections. */
async function twoInstances(prefix: string): Promise<[TestApp, TestApp]> {
  const make = async () => {
    const limits = await redisLimits(REDIS_URL, prefix)
    return createTestApp({ parts: (parts) => ({ ...parts, rateLimiter: limits.limiter }) })
  }
  return [await make(), await make()]
}

describeRateLimiterContract('redis (rate-limiter-flexible over ioredis)', async () => {
  await waitForRoomInCurrentMinute(2_500)
  const limits = await redisLimits(REDIS_URL, `${runPrefix}:${randomBase62(8)}`)
  return { limiter: limits.limiter, now: Date.now }
})

describe('redis limiter against the real Redis', () => {
  it('gives exactly the decisions of the memory limiter (the same sliding window as Upstash)', async () => {
    await waitForRoomInCurrentMinute(2_500)
    const redis = createRedisRateLimiter(admin, { prefix: `${runPrefix}:${randomBase62(8)}`, onError: () => {} })
    const memory = createMemoryRateLimiter()
    expect(await checkTimes(redis, 'bulk', '198.51.100.7', 12)).toEqual(
      await checkTimes(memory, 'bulk', '198.51.100.7', 12),
    )
  })

  it('keeps one hash per client and bucket, expiring once its window no longer weighs', async () => {
    const prefix = `${runPrefix}:${randomBase62(8)}`
    const limits = await redisLimits(REDIS_URL, prefix)
    await limits.limiter.check('signInAccount', 'hash-of-an-email')
    const key = `${prefix}:signInAccount:hash-of-an-email`
    expect(await admin.hgetall(key)).toMatchObject({ c: '1', p: '0' })
    const ttl = await admin.pttl(key)
    expect(ttl).toBeGreaterThan(900_000) // the rest of this window, then the next one
    expect(ttl).toBeLessThanOrEqual(1_800_000)
  })
})

describe('two instances on one Redis', () => {
  it('allow 120 API requests a minute from one client between them, and refuse the 121st on either', async () => {
    await waitForRoomInCurrentMinute(20_000)
    const [a, b] = await twoInstances(`${runPrefix}:${randomBase62(8)}`)
    const ip = randomIp()
    const remaining: number[] = []
    for (let i = 0; i < 120; i++) {
      const res = await (i % 2 === 0 ? a : b).call('GET', '/v1/me', { headers: { 'x-forwarded-for': ip } })
      expect(res.status).toBe(200)
      remaining.push(Number(res.headers.get('ratelimit-remaining')))
    }
    expect(remaining).toEqual(Array.from({ length: 120 }, (_, i) => 119 - i))
    for (const t of [a, b]) {
      const refused = await t.call('GET', '/v1/me', { headers: { 'x-forwarded-for': ip } })
      expect(refused.status).toBe(429)
      expect(refused.headers.get('ratelimit-limit')).toBe('120')
      expect(refused.headers.get('ratelimit-remaining')).toBe('0')
      const retryAfter = Number(refused.headers.get('retry-after'))
      expect(retryAfter).toBeGreaterThanOrEqual(1)
      expect(retryAfter).toBeLessThanOrEqual(61)
      expect(Number(refused.headers.get('ratelimit-reset'))).toBe(retryAfter - 1)
      expect((await refused.json()).error.code).toBe('rate_limited')
    }
    // Another client still gets through on both.
    expect((await a.call('GET', '/v1/me')).status).toBe(200)
    expect((await b.call('GET', '/v1/me')).status).toBe(200)
  })

  it('lock an account after 10 attempts between them, whichever instance the 11th reaches', async () => {
    const [a, b] = await twoInstances(`${runPrefix}:${randomBase62(8)}`)
    const email = `shared-${randomBase62(6)}@example.com`
    await createUser(a.deps, { email, name: 'Shared', password: 'the right password' })
    for (let i = 0; i < 10; i++) {
      const res = await submitSignIn((i % 2 === 0 ? a : b).app, email, `wrong-${i}`, randomIp())
      expect(res.status).toBe(401)
    }
    for (const t of [a, b]) {
      const locked = await submitSignIn(t.app, email, 'the right password', randomIp())
      expect(locked.status).toBe(429)
      expect(await locked.text()).toMatch(/locked for now\. Try again in \d+ (minutes|seconds)\./)
    }
  })

  it('hold one network to 20 sign-in attempts a minute between them', async () => {
    await waitForRoomInCurrentMinute(10_000)
    const [a, b] = await twoInstances(`${runPrefix}:${randomBase62(8)}`)
    const ip = randomIp()
    for (let i = 0; i < 20; i++) {
      const res = await submitSignIn((i % 2 === 0 ? a : b).app, `nobody-${i}@example.com`, 'guess', ip)
      expect(res.status).toBe(401)
    }
    for (const t of [a, b]) {
      const refused = await submitSignIn(t.app, 'nobody-else@example.com', 'guess', ip)
      expect(refused.status).toBe(429)
      expect(await refused.text()).toContain('Too many attempts from your network.')
    }
  })
})

describe('npm start with REDIS_URL', () => {
  it('shares the limit with another instance: the 121st request is refused by either', async () => {
    const prefix = `${runPrefix}:${randomBase62(8)}`
    const dataDir = mkdtempSync(join(tmpdir(), 'sps-redis-start-'))
    const server = await startServer({
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      NODE_NO_WARNINGS: '1',
      TRUST_PROXY: 'true',
      REDIS_URL,
      REDIS_KEY_PREFIX: prefix,
    })
    try {
      expect(server.output()).toContain(`Rate limits: redis://${new URL(REDIS_URL).hostname}:`)
      await waitForRoomInCurrentMinute(15_000)
      const limits = await redisLimits(REDIS_URL, prefix)
      const app = await createTestApp({ parts: (parts) => ({ ...parts, rateLimiter: limits.limiter }) })
      const ip = randomIp()
      // Without a token the started server answers 401, counted like any request.
      const onServer = () => fetch(`${server.baseUrl}/v1/me`, { headers: { 'x-forwarded-for': ip } })
      const onApp = () => app.call('GET', '/v1/me', { headers: { 'x-forwarded-for': ip } })
      for (let i = 0; i < 60; i++) {
        expect((await onServer()).status).toBe(401)
        expect((await onApp()).status).toBe(200)
      }
      const refused = await onServer()
      expect(refused.status).toBe(429)
      expect(refused.headers.get('ratelimit-remaining')).toBe('0')
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
      expect((await onApp()).status).toBe(429)
    } finally {
      await server.stop()
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})

/** A TCP relay to the run's Redis that a test can cut (an outage) and bring back on the same port. */
async function startCuttableRelay() {
  const target = new URL(REDIS_URL)
  const sockets = new Set<net.Socket>()
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 6379), target.hostname)
    for (const s of [client, upstream]) {
      sockets.add(s)
      s.on('close', () => sockets.delete(s))
      s.on('error', () => {})
    }
    client.pipe(upstream).pipe(client)
  })
  const listen = (port: number) => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  await listen(0)
  const port = (server.address() as net.AddressInfo).port
  const url = new URL(REDIS_URL)
  url.hostname = '127.0.0.1'
  url.port = String(port)
  return {
    url: url.toString(),
    cut: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        for (const s of sockets) s.destroy()
      }),
    restore: () => listen(port),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
      }),
  }
}

describe('Redis going away and coming back', () => {
  it('counts the API in memory and refuses sign-in (503) while it is away, then counts on from where it was', async () => {
    await waitForRoomInCurrentMinute(20_000)
    const relay = await startCuttableRelay()
    try {
      const lines: string[] = []
      const prefix = `${runPrefix}:${randomBase62(8)}`
      const limits = await redisLimits(relay.url, prefix, lines)
      const t = await createTestApp({ parts: (parts) => ({ ...parts, rateLimiter: limits.limiter }) })
      const remaining = async () => Number((await t.call('GET', '/v1/me')).headers.get('ratelimit-remaining'))
      expect([await remaining(), await remaining()]).toEqual([119, 118])

      await relay.cut()
      const away = await until(
        () => t.call('GET', '/v1/me'),
        (res) => res.headers.get('ratelimit-remaining') === '119',
      )
      expect(away.status).toBe(200)
      expect(away.headers.get('ratelimit-remaining')).toBe('119') // the instance's own memory starts counting
      expect(Number((await t.call('GET', '/v1/me')).headers.get('ratelimit-remaining'))).toBe(118)
      const refused = await submitSignIn(t.app, 'someone@example.com', 'guess', randomIp())
      expect(refused.status).toBe(503)
      expect(refused.headers.get('retry-after')).toBe('31')
      expect(await refused.text()).toContain('Sign-in and sign-up are paused for a moment')
      expect(limits.limiter.status?.()).toMatchObject({ store: 'redis', state: 'unavailable' })
      expect(lines.some((l) => l.includes('"event":"redis_unreachable"'))).toBe(true)
      expect(lines.filter((l) => l.includes('"event":"rate_limiter_unavailable"'))).toHaveLength(1)

      await relay.restore()
      // ioredis reconnects by itself (within its 2 s backoff); the count kept in Redis goes on.
      const state = () => remaining().then(() => limits.limiter.status?.().state)
      expect(await until(state, (now) => now === 'ok', 10_000)).toBe('ok')
      // Redis had counted 2 (and the request that found it back): the memory's count is left behind.
      expect(await remaining()).toBe(116)
      const again = await submitSignIn(t.app, 'someone@example.com', 'guess', randomIp())
      expect(again.status).toBe(401)
      expect(limits.limiter.status?.()).toMatchObject({ state: 'ok', fallbackDecisions: 0 })
      expect(lines.filter((l) => l.includes('"event":"rate_limiter_recovered"'))).toHaveLength(1)
    } finally {
      await relay.close()
    }
  })
})
