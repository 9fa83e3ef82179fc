import { Redis } from 'ioredis'
import { inject } from 'vitest'

/** One ioredis client per test file, made on first use (closed by setup-file.ts). */
let client: Redis | null = null

/**
 * The run's Redis (REDIS_URL) and its key prefix, or null in an embedded run. The client queues
 * commands until it is connected (unlike the runtime's), so a test's first check is counted rather
 * than answered by the outage policy.
 */
export function testRedis(): { redis: Redis; prefix: string } | null {
  const url = inject('redisUrl')
  if (!url) return null
  client ??= new Redis(url, { maxRetriesPerRequest: 2 })
  return { redis: client, prefix: inject('redisKeyPrefix')! }
}

export async function closeTestRedis(): Promise<void> {
  const open = client
  client = null
  await open?.quit()
}
