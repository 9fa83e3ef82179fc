/** The behaviour every RateLimiter promises (memory, Upstash, Redis), shared by their test files. */
import { describe, expect, it } from 'vitest'
import type { RateLimitBucket, RateLimiter } from '../../src/infra/ratelimit/types'

export const MINUTE_MS = 60_000

export interface LimiterUnderTest {
  limiter: RateLimiter
  /** The clock the limiter reads (fake for memory, Date.now for Upstash). */
  now: () => number
}

export async function checkTimes(limiter: RateLimiter, bucket: RateLimitBucket, clientKey: string, times: number) {
  const decisions = []
  for (let i = 0; i < times; i++) decisions.push(await limiter.check(bucket, clientKey))
  return decisions
}

/** The behaviour both implementations promise, with the spec's rules; needs no time travel. */
export function describeRateLimiterContract(name: string, makeLimiter: () => Promise<LimiterUnderTest>) {
  describe(`${name}: RateLimiter contract`, () => {
    it('allows 120 requests a minute for one key, counting remaining down, and refuses the 121st', async () => {
      const { limiter } = await makeLimiter()
      const decisions = await checkTimes(limiter, 'default', '203.0.113.1', 121)
      expect(decisions.slice(0, 120).every((d) => d.allowed && d.limit === 120)).toBe(true)
      expect(decisions.slice(0, 120).map((d) => d.remaining)).toEqual(Array.from({ length: 120 }, (_, i) => 119 - i))
      expect(decisions[120]).toMatchObject({ allowed: false, limit: 120, remaining: 0 })
      expect(await limiter.check('default', '203.0.113.1')).toMatchObject({ allowed: false, remaining: 0 })
    })

    it('leaves other keys unaffected', async () => {
      const { limiter } = await makeLimiter()
      await checkTimes(limiter, 'bulk', '203.0.113.1', 11)
      expect(await limiter.check('bulk', '203.0.113.2')).toMatchObject({ allowed: true, limit: 10, remaining: 9 })
      expect(await limiter.check('bulk', '2001:db8::1')).toMatchObject({ allowed: true, remaining: 9 })
    })

    it('keeps buckets independent: the 11th bulk request is refused, default still allowed', async () => {
      const { limiter } = await makeLimiter()
      const bulk = await checkTimes(limiter, 'bulk', '203.0.113.1', 11)
      expect(bulk.map((d) => d.allowed)).toEqual([...Array<boolean>(10).fill(true), false])
      expect(await limiter.check('default', '203.0.113.1')).toMatchObject({ allowed: true, limit: 120, remaining: 119 })
      expect(await limiter.check('uploads', '203.0.113.1')).toMatchObject({ allowed: true, limit: 60, remaining: 59 })
      expect(await limiter.check('variants', '203.0.113.1')).toMatchObject({ allowed: true, limit: 30, remaining: 29 })
    })

    it('puts resetAt at the end of the current minute-aligned window, allowed or not', async () => {
      const { limiter, now } = await makeLimiter()
      const decisions = await checkTimes(limiter, 'bulk', '203.0.113.9', 12)
      const [first, refused] = [decisions[0], decisions[11]]
      const windowEnd = (Math.floor(now() / MINUTE_MS) + 1) * MINUTE_MS
      expect(first?.resetAt).toBe(windowEnd)
      expect(refused).toMatchObject({ allowed: false, resetAt: windowEnd })
      expect(windowEnd).toBeGreaterThan(now())
    })
  })
}
