import { describe, expect, it } from 'vitest'
import {
  DEFAULT_WEBHOOK_POLICY,
  parseRetryAfter,
  webhookPolicy,
  webhookRetryDelayMs,
} from '../../src/domain/webhooks/policy'

const DAY = 86_400_000

describe('webhook retry policy', () => {
  it('retries first within seconds and spreads the attempts over about three days', () => {
    const mid = webhookPolicy({ random: () => 0.5 })
    expect(webhookRetryDelayMs(mid, 1)).toBe(5_000)
    const waits = Array.from({ length: DEFAULT_WEBHOOK_POLICY.maxAttempts - 1 }, (_, i) =>
      webhookRetryDelayMs(mid, i + 1),
    )
    for (let i = 1; i < waits.length; i++) expect(waits[i]).toBeGreaterThanOrEqual(waits[i - 1]!)
    const total = waits.reduce((a, b) => a + b, 0)
    expect(total).toBeGreaterThan(2.5 * DAY)
    expect(total).toBeLessThan(3.5 * DAY)
    expect(Math.max(...waits)).toBe(12 * 3_600_000)
  })

  it('jitters by at most 20 % either way', () => {
    expect(webhookRetryDelayMs(webhookPolicy({ random: () => 0 }), 2)).toBe(16_000)
    expect(webhookRetryDelayMs(webhookPolicy({ random: () => 1 }), 2)).toBe(24_000)
  })

  it("honours the receiver's Retry-After, capped at a day", () => {
    const policy = webhookPolicy({ random: () => 0.5 })
    expect(webhookRetryDelayMs(policy, 1, 120_000)).toBe(120_000)
    expect(webhookRetryDelayMs(policy, 1, 9 * DAY)).toBe(DAY)
  })

  it('reads Retry-After as seconds or an HTTP date; anything else is ignored', () => {
    const now = new Date('2026-11-25T10:00:00Z')
    expect(parseRetryAfter('30', now)).toBe(30_000)
    expect(parseRetryAfter('Wed, 25 Nov 2026 10:05:00 GMT', now)).toBe(300_000)
    expect(parseRetryAfter('Wed, 25 Nov 2026 09:00:00 GMT', now)).toBe(0)
    expect(parseRetryAfter('soon', now)).toBeNull()
    expect(parseRetryAfter(null, now)).toBeNull()
  })
})
