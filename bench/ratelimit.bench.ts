import { randomUUID } from 'node:crypto'
import { createLogger } from '../src/infra/logger'
import { createMemoryRateLimiter } from '../src/infra/ratelimit/memory'
import type { RateLimiter } from '../src/infra/ratelimit/types'
import { openRedisRateLimiter } from '../src/runtime/node-rate-limiter'
import { percentile, round, timeInterleaved, type Benchmark } from './types'

const SEQUENTIAL = 2_000
const CONCURRENT = 20_000
const IN_FLIGHT = 64

/** Checks per second with `IN_FLIGHT` checks at once over 1,000 clients (most allowed, some refused). */
async function throughput(limiter: RateLimiter): Promise<number> {
  let next = 0
  const started = performance.now()
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < CONCURRENT) await limiter.check('default', `10.0.${(next % 1000) >> 8}.${next++ % 256}`)
    }),
  )
  return CONCURRENT / ((performance.now() - started) / 1000)
}

/**
 * One rate-limit check (what every request pays before anything else): in memory, and with REDIS_URL
 * over Redis (rate-limiter-flexible, ioredis, the sliding-window script), one at a time and
 * `IN_FLIGHT` at once. Without REDIS_URL only the memory row.
 */
export const rateLimitBenchmark: Benchmark = {
  name: 'ratelimit',
  description: `one rate-limit check: memory vs REDIS_URL (${SEQUENTIAL} one at a time, ${CONCURRENT} with ${IN_FLIGHT} in flight)`,
  async run() {
    const limiters: Array<[string, RateLimiter, () => Promise<void>]> = [
      ['memory', createMemoryRateLimiter(), async () => {}],
    ]
    const url = process.env.REDIS_URL
    if (url) {
      const redis = await openRedisRateLimiter(url, {
        prefix: `bench:${randomUUID()}`,
        logger: createLogger('warn'),
        onError: (error) => {
          throw error
        },
      })
      limiters.push([`redis (${redis.description})`, redis.limiter, redis.close])
    }
    let n = 0
    const sequential = await timeInterleaved(
      SEQUENTIAL,
      limiters.map(
        ([, limiter]) =>
          () =>
            limiter.check('default', `client-${n++ % 500}`),
      ),
    )
    const rows = []
    for (const [k, [name, limiter, close]] of limiters.entries()) {
      const times = sequential[k]!
      rows.push({
        store: name,
        'p50 ms': round(percentile(times, 50), 3),
        'p99 ms': round(percentile(times, 99), 3),
        [`checks/s (${IN_FLIGHT} in flight)`]: Math.round(await throughput(limiter)),
      })
      await close()
    }
    return rows
  },
}
