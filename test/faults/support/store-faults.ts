/**
 * What test/faults/object-store.test.ts shares between its works: the faults each work meets, the
 * app's bound on a store call there, and the check of a refusal (the contract's 503
 * `storage_unavailable`, in words, within the bound) with the tallies its rows are written from.
 */
import { expect } from 'vitest'
import type { LeakWatch } from '../../reliability/support/leaks'
import type { TestApp, TestResponse } from '../../support/test-app'
import type { StoreFault } from './store-proxy'

/** The app's bound on one store call in these tests (30 s in production): a stall of 5 s passes it. */
export const STORE_TIMEOUT_MS = 2000
export const STALL_SEC = 5
/** The longest a request may take with the store down or stalled: two store calls at their bound, and slack. */
export const BOUND_MS = 2 * STORE_TIMEOUT_MS + 2500

export const FAULTS: Array<{ name: string; fault: StoreFault }> = [
  { name: 'refused', fault: { kind: 'refused' } },
  { name: 'reset', fault: { kind: 'reset' } },
  { name: 'SlowDown', fault: { kind: 'busy', code: 'SlowDown' } },
  { name: 'stall', fault: { kind: 'stall', sec: STALL_SEC } },
]

/** What the service answered during the faults, counted for the row's `meanwhile`. */
export function tallyOf() {
  const seen = new Map<string, number>()
  return {
    add: (what: string) => seen.set(what, (seen.get(what) ?? 0) + 1),
    words: () => [...seen].map(([what, n]) => `${what} (${n})`).join('; '),
  }
}

/** The refusals' check, every answer recorded for the leak watch, and the slowest of a test. */
export function refusals(watch: LeakWatch) {
  let slowestMs = 0
  return {
    reset: () => {
      slowestMs = 0
    },
    slowest: () => `slowest refusal ${(slowestMs / 1000).toFixed(1)} s`,
    /**
     * The answer is the contract's 503 `storage_unavailable` with a wait, in words, within the
     * bound, and nothing of the store's or the SDK's own text. Returns its short form for the tally.
     */
    async expectUnavailable(res: TestResponse, startedMs: number, where: string): Promise<string> {
      const elapsedMs = Date.now() - startedMs
      slowestMs = Math.max(slowestMs, elapsedMs)
      const text = await res.text()
      watch.record(where, text)
      expect(res.status, `${where}: ${text}`).toBe(503)
      const body = JSON.parse(text)
      expect(body.error.code).toBe('storage_unavailable')
      expect(body.error.message).toMatch(/media store .* Try again in \d+ seconds/)
      // The request id is random letters: only the words a user reads are searched for the driver's.
      expect(JSON.stringify({ ...body.error, requestId: undefined })).not.toMatch(
        /ECONN|EPIPE|socket|SlowDown|<Error>|\bS3\b|\baws\b|at .*\.ts:/i,
      )
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
      expect(elapsedMs, `${where} took ${elapsedMs} ms`).toBeLessThan(BOUND_MS)
      return `503 storage_unavailable, Retry-After ${res.headers.get('retry-after')}`
    },
  }
}

/** The workspace's media library (one page: these tests make fewer than 100 assets). */
export const listed = async (t: TestApp): Promise<any[]> =>
  (await (await t.call('GET', '/v1/media?limit=100')).json()).data
