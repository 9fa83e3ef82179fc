import { describe, expect, it } from 'vitest'
import type { Db } from '../../../src/db/types'
import { checkHealth } from '../../../src/services/health'
import { account, fixedClock } from '../../support/fixtures'
import { createTestApp } from '../../support/test-app'

/** The database `db` whose raw statements fail (`the query failed`) or never answer. */
function brokenExecute(db: Db, how: 'fails' | 'hangs'): Db {
  return new Proxy(db, {
    get(target, prop, receiver) {
      if (prop === 'execute')
        return () =>
          how === 'hangs'
            ? new Promise(() => {})
            : Promise.reject(new Error('Failed query: select 1 from "pg_secret" at db.internal:5432'))
      return Reflect.get(target, prop, receiver)
    },
  })
}

describe('GET /health', () => {
  it('answers without a token, is never cached and is not rate limited (a monitor polls it from one address)', async () => {
    // 1990: before any target of the run's other tests, so nothing is overdue at this moment.
    const t = await createTestApp({ clock: fixedClock('1990-01-01T00:00:00Z') })
    for (let i = 0; i < 130; i++) {
      const res = await t.call('GET', '/health', { token: null })
      expect(res.status, `request ${i + 1}`).toBe(200)
    }
    const res = await t.call('GET', '/health', { token: null })
    expect(res.headers.get('cache-control')).toBe('no-store')
    const body = await res.json()
    expect(body).toMatchObject({
      status: 'ok',
      checkedAt: '1990-01-01T00:00:00.000Z',
      database: { status: 'ok' },
      publishing: { overdueTargets: 0, oldestOverdueSec: null, expiredClaims: 0 },
    })
    expect(body.database.latencyMs).toBeGreaterThanOrEqual(0)
    expect(body.rateLimiter).toMatchObject({ state: 'ok', since: null, fallbackDecisions: 0 })
    expect(['memory', 'redis']).toContain(body.rateLimiter.store)
  })

  it('is degraded while a target waits past its time, and says how late the oldest is', async () => {
    const clock = fixedClock('2031-03-01T10:00:00Z')
    const t = await createTestApp({ clock })
    const acc = await account(t, 'MICROBLOG_NET')
    const created = await t.call('POST', '/v1/posts', {
      body: {
        type: 'IMAGE',
        mediaIds: [],
        caption: 'Due at eleven',
        accountIds: [acc.id],
        action: 'schedule',
        scheduledAt: '2031-03-01T11:00:00Z',
      },
    })
    expect(created.status, await created.clone().text()).toBe(200)
    const before = await (await t.call('GET', '/health', { token: null })).json()
    // Its time comes and goes with nothing publishing it (this app's queue only records deliveries).
    clock.set('2031-03-01T11:00:30Z')
    const early = await (await t.call('GET', '/health', { token: null })).json()
    expect(early.publishing.overdueTargets).toBe(before.publishing.overdueTargets)
    clock.set('2031-03-01T13:00:00Z')
    const late = await (await t.call('GET', '/health', { token: null })).json()
    expect(late.status).toBe('degraded')
    expect(late.publishing.overdueTargets).toBeGreaterThan(before.publishing.overdueTargets)
    expect(late.publishing.oldestOverdueSec).toBeGreaterThanOrEqual(2 * 3600)
  })

  it('is 503 unavailable when the database fails, with no SQL, host or stack in the answer or the log', async () => {
    const logLines: string[] = []
    const t = await createTestApp({ logLines, parts: (p) => ({ ...p, db: brokenExecute(p.db, 'fails') }) })
    const res = await t.call('GET', '/health', { token: null })
    expect(res.status).toBe(503)
    const text = await res.text()
    expect(JSON.parse(text)).toMatchObject({
      status: 'unavailable',
      database: { status: 'unavailable', latencyMs: null, reason: 'the query failed' },
      publishing: null,
    })
    for (const out of [text, ...logLines]) expect(out).not.toMatch(/pg_secret|db\.internal|select 1|at .*:\d+/)
    expect(logLines.some((l) => l.includes('health_database_unavailable'))).toBe(true)
  })

  it('does not wait on a database that does not answer: unavailable once the bound passes', async () => {
    const t = await createTestApp({ parts: (p) => ({ ...p, db: brokenExecute(p.db, 'hangs') }) })
    const report = await checkHealth(t.deps, { timeoutMs: 50 })
    expect(report).toMatchObject({ status: 'unavailable', database: { reason: 'no answer within 50 ms' } })
  })
})
