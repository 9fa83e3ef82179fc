import { createHash, randomUUID } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Redis } from '@upstash/redis'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createMemoryRateLimiter } from '../../src/infra/ratelimit/memory'
import { RATE_LIMIT_RULES } from '../../src/infra/ratelimit/types'
import { createUpstashRateLimiter } from '../../src/infra/ratelimit/upstash'
import { waitForRoomInCurrentMinute } from '../support/minute'
import { checkTimes, describeRateLimiterContract, MINUTE_MS } from './ratelimit-contract'
import { startUpstashRestShim, type UpstashRestShim } from '../support/upstash-rest-shim'

const SHIM_TOKEN = 'shim-test-token'
/** CI sets REDIS_URL; without it the shim runs on ioredis-mock. */
const REAL_REDIS_URL = process.env.REDIS_URL

/** A clock tests move by hand, starting `offsetMs` into a minute. */
function createManualClock(offsetMs = 1_000) {
  let nowMs = Date.UTC(2030, 0, 1, 12, 0, 0) + offsetMs
  return { now: () => nowMs, advance: (ms: number) => void (nowMs += ms) }
}

describeRateLimiterContract('memory', async () => {
  const clock = createManualClock()
  return { limiter: createMemoryRateLimiter({ now: clock.now }), now: clock.now }
})

describe('memory limiter: sliding window and memory bound', () => {
  it('weights the previous window by the part of it still inside the sliding minute', async () => {
    const clock = createManualClock(0)
    const limiter = createMemoryRateLimiter({ now: clock.now })
    await checkTimes(limiter, 'bulk', 'a', 10)
    clock.advance(MINUTE_MS + 30_000) // half-way through the next window: floor(0.5 * 10) = 5 still count
    const halfWay = await checkTimes(limiter, 'bulk', 'a', 6)
    expect(halfWay.map((d) => d.remaining)).toEqual([4, 3, 2, 1, 0, 0])
    expect(halfWay.map((d) => d.allowed)).toEqual([true, true, true, true, true, false])
    clock.advance(15_000) // 3/4 through: floor(0.25 * 10) + 5 = 7 used, so 3 left before this one
    expect(await limiter.check('bulk', 'a')).toMatchObject({ allowed: true, remaining: 2 })
    clock.advance(MINUTE_MS) // the previous window now holds 6, weighted floor(0.25 * 6) = 1
    expect(await limiter.check('bulk', 'a')).toMatchObject({ allowed: true, remaining: 10 - 2 })
    clock.advance(2 * MINUTE_MS) // both windows gone: a fresh start
    expect(await limiter.check('bulk', 'a')).toMatchObject({ allowed: true, remaining: 9 })
  })

  it('still refuses at resetAt (previous window weighs 100%) and frees one slot 1 ms later', async () => {
    const clock = createManualClock(59_000)
    const limiter = createMemoryRateLimiter({ now: clock.now })
    const decisions = await checkTimes(limiter, 'bulk', 'a', 11)
    const refused = decisions[10]
    expect(refused?.allowed).toBe(false)
    clock.advance((refused?.resetAt ?? 0) - clock.now())
    expect((await limiter.check('bulk', 'a')).allowed).toBe(false)
    clock.advance(1) // floor(0.99998 * 10) = 9 of the previous window still count
    expect(await limiter.check('bulk', 'a')).toMatchObject({ allowed: true, remaining: 0 })
    expect((await limiter.check('bulk', 'a')).allowed).toBe(false)
  })

  it('honours custom rules', async () => {
    const limiter = createMemoryRateLimiter({ rules: { bulk: { limit: 2, windowSec: 10 } } })
    expect((await checkTimes(limiter, 'bulk', 'a', 3)).map((d) => d.allowed)).toEqual([true, true, false])
    expect((await limiter.check('default', 'a')).limit).toBe(RATE_LIMIT_RULES.default.limit)
  })

  it('stays bounded under a flood of distinct clients and sweeps expired windows', async () => {
    const clock = createManualClock()
    const limiter = createMemoryRateLimiter({ now: clock.now, maxClientsPerBucket: 1_000 })
    for (let i = 0; i < 20_000; i++) await limiter.check('default', `10.0.${i >> 8}.${i & 255}`)
    expect(limiter.trackedClientCount()).toBe(1_000)
    clock.advance(2 * MINUTE_MS)
    await limiter.check('default', 'newcomer')
    expect(limiter.trackedClientCount()).toBe(1)
  })

  it('forgets the least recently seen client first when full', async () => {
    const limiter = createMemoryRateLimiter({ now: createManualClock().now, maxClientsPerBucket: 2 })
    await checkTimes(limiter, 'bulk', 'first', 10)
    await checkTimes(limiter, 'bulk', 'second', 10)
    expect((await limiter.check('bulk', 'first')).allowed).toBe(false) // 'first' is now the most recent
    await limiter.check('bulk', 'newcomer') // pushes out 'second', the least recently seen
    expect((await limiter.check('bulk', 'first')).allowed).toBe(false)
    expect(await limiter.check('bulk', 'second')).toMatchObject({ allowed: true, remaining: 9 })
  })
})

describe(`upstash limiter through the REST shim (${REAL_REDIS_URL ? `redis at ${REAL_REDIS_URL}` : 'ioredis-mock'})`, () => {
  let shim: UpstashRestShim
  beforeAll(async () => {
    shim = await startUpstashRestShim({ redisUrl: REAL_REDIS_URL, token: SHIM_TOKEN })
  })
  afterAll(async () => {
    await shim.close()
  })

  const redisClient = () => new Redis({ url: shim.url, token: SHIM_TOKEN, enableTelemetry: false })
  /** A fresh key space per test, so runs never collide in a shared Redis. */
  const uniquePrefix = () => `test:ratelimit:${randomUUID()}`

  /**
   * Upstash reads the real clock: a test must not straddle a minute boundary, or the previous
   * window's weight would change under it. Waits (at most `budgetMs`) for a fresh minute if needed.
   */

  describeRateLimiterContract('upstash', async () => {
    await waitForRoomInCurrentMinute(2_500)
    return { limiter: createUpstashRateLimiter(redisClient(), { prefix: uniquePrefix() }), now: Date.now }
  })

  it('gives exactly the decisions of the memory limiter', async () => {
    await waitForRoomInCurrentMinute(2_500)
    const upstash = createUpstashRateLimiter(redisClient(), { prefix: uniquePrefix() })
    const memory = createMemoryRateLimiter()
    const fromUpstash = await checkTimes(upstash, 'bulk', '198.51.100.7', 12)
    const fromMemory = await checkTimes(memory, 'bulk', '198.51.100.7', 12)
    expect(fromUpstash).toEqual(fromMemory)
  })

  it('fails open for the API and closed for sign-in, and reports the error, when Redis is unreachable', async () => {
    const closedPortUrl = await new Promise<string>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo
        probe.close(() => resolve(`http://127.0.0.1:${port}`))
      })
    })
    const onError = vi.fn()
    const unreachable = new Redis({ url: closedPortUrl, token: SHIM_TOKEN, retry: false, enableTelemetry: false })
    const limiter = createUpstashRateLimiter(unreachable, { onError })
    const decision = await limiter.check('bulk', '203.0.113.1')
    expect(decision).toMatchObject({ allowed: true, limit: 10, remaining: 9 })
    expect(decision.resetAt % MINUTE_MS).toBe(0)
    expect(onError).toHaveBeenCalledOnce()
    expect(onError).toHaveBeenCalledWith(expect.any(Error), { bucket: 'bulk', clientKey: '203.0.113.1' })
    // Sign-in fails closed: an outage must not lift the limit on password guesses.
    const before = Date.now()
    const signIn = await limiter.check('signInAccount', 'hash-of-an-email')
    expect(signIn).toMatchObject({ allowed: false, limit: 10, remaining: 0, unavailable: true })
    expect(signIn.resetAt - before).toBeGreaterThanOrEqual(30_000)
    expect(signIn.resetAt - Date.now()).toBeLessThanOrEqual(30_000)
    expect(await limiter.check('signInIp', '203.0.113.1')).toMatchObject({ allowed: false, unavailable: true })
  })

  it('fails open when Redis is slower than timeoutMs', async () => {
    const onError = vi.fn()
    const hanging = new Redis({ request: () => new Promise<never>(() => {}) })
    const limiter = createUpstashRateLimiter(hanging, { onError, timeoutMs: 20 })
    expect(await limiter.check('default', 'a')).toMatchObject({ allowed: true, limit: 120, remaining: 119 })
    expect(String(onError.mock.calls[0]?.[0])).toMatch(/timed out after 20 ms/)
  })

  it('shim speaks the Upstash REST protocol', async () => {
    const redis = redisClient()
    const key = uniquePrefix()
    expect(await redis.set(`${key}:s`, 'héllo ✓', { px: 10_000 })).toBe('OK')
    expect(await redis.get(`${key}:s`)).toBe('héllo ✓')
    await redis.hset(`${key}:h`, { a: 1, b: 'two' })
    expect(await redis.hgetall(`${key}:h`)).toEqual({ a: 1, b: 'two' })
    expect(await redis.pipeline().incr(`${key}:n`).incr(`${key}:n`).exec()).toEqual([1, 2])
    expect(await redis.multi().incr(`${key}:n`).get(`${key}:n`).exec()).toEqual([3, 3])
    const script = '#!lua flags=allow-key-locking\nreturn {KEYS[1], tonumber(ARGV[1]) + 1}'
    const clientSha = createHash('sha1').update(script).digest('hex')
    if (REAL_REDIS_URL) expect(await redis.scriptLoad(script)).toBe(clientSha) // ioredis-mock has no SCRIPT
    await expect(redis.evalsha('0'.repeat(40), [], [])).rejects.toThrow(/NOSCRIPT/)
    expect(await redis.eval(script, [`${key}:k`], [41])).toEqual([`${key}:k`, 42])
    expect(await redis.evalsha(clientSha, [`${key}:k`], [1])).toEqual([`${key}:k`, 2])
    await redis.del(`${key}:s`, `${key}:h`, `${key}:n`)
    const unauthorized = await fetch(shim.url, {
      method: 'POST',
      body: '["PING"]',
      headers: { authorization: 'Bearer nope' },
    })
    expect(unauthorized.status).toBe(401)
    const badCommand = await fetch(shim.url, {
      method: 'POST',
      body: '["NOSUCHCOMMAND"]',
      headers: { authorization: `Bearer ${SHIM_TOKEN}` },
    })
    expect(badCommand.status).toBe(400)
    expect(await badCommand.json()).toHaveProperty('error')
  })
})
