import { inject } from 'vitest'

/**
 * Rate-limit windows are minutes of the real clock where a limiter reads it: a test counting
 * requests must not straddle a minute boundary. Waits for a fresh minute when fewer than
 * `budgetMs` are left in this one. The in-app test limiter reads a frozen clock unless the run
 * counts in Redis (REDIS_URL), so `onlyWithRedis` skips the wait when it cannot matter.
 */
export async function waitForRoomInCurrentMinute(
  budgetMs: number,
  options: { onlyWithRedis?: boolean } = {},
): Promise<void> {
  if (options.onlyWithRedis && !inject('redisUrl')) return
  const leftMs = 60_000 - (Date.now() % 60_000)
  if (leftMs < budgetMs) await new Promise((resolve) => setTimeout(resolve, leftMs + 5))
}
