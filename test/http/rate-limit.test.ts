import { describe, expect, it } from 'vitest'
import { OpenAPIHono } from '@hono/zod-openapi'
import { bucketResolver } from '../../src/http/route-meta'
import { registerRoutes } from '../../src/routes'
import { fixedClock } from '../support/fixtures'
import { waitForRoomInCurrentMinute } from '../support/minute'
import { createTestApp as createAnyTestApp, randomIp } from '../support/test-app'

/** A fixed clock for the in-memory limiter, and a whole minute ahead for Upstash's real one. */
async function createTestApp() {
  await waitForRoomInCurrentMinute(15_000, { onlyWithRedis: true })
  return createAnyTestApp({ clock: fixedClock(new Date().toISOString()) })
}

describe('rate limits over HTTP', () => {
  it('refuses the 121st request in a minute from one IP with 429 and Retry-After', async () => {
    const t = await createTestApp()
    const remaining: number[] = []
    for (let i = 0; i < 120; i++) {
      const res = await t.call('GET', '/v1/me')
      expect(res.status).toBe(200)
      expect(res.headers.get('ratelimit-limit')).toBe('120')
      remaining.push(Number(res.headers.get('ratelimit-remaining')))
    }
    expect(remaining[0]).toBe(119)
    expect(remaining[119]).toBe(0)
    const refused = await t.call('GET', '/v1/me')
    expect(refused.status).toBe(429)
    const body = await refused.json()
    expect(body.error.code).toBe('rate_limited')
    expect(body.error.requestId).toBe(refused.headers.get('x-request-id'))
    const retryAfter = Number(refused.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThanOrEqual(1)
    expect(retryAfter).toBeLessThanOrEqual(61)
    // The message asks for the same wait as the header.
    expect(body.error.message).toContain(`Try again in ${retryAfter} s.`)
    expect(refused.headers.get('ratelimit-remaining')).toBe('0')
    // Another client is not affected.
    expect((await t.call('GET', '/v1/me', { headers: { 'x-forwarded-for': randomIp() } })).status).toBe(200)
  })

  it('puts the headers on every answer, errors and unauthenticated ones included', async () => {
    const t = await createTestApp()
    for (const res of [
      await t.call('GET', '/v1/me', { token: null }),
      await t.call('GET', '/v1/nope'),
      await t.call('GET', '/v1/accounts'),
    ]) {
      expect(res.headers.get('ratelimit-limit')).toBe('120')
      expect(Number(res.headers.get('ratelimit-remaining'))).toBeGreaterThanOrEqual(0)
      const reset = Number(res.headers.get('ratelimit-reset'))
      expect(reset).toBeGreaterThanOrEqual(0)
      expect(reset).toBeLessThanOrEqual(60)
    }
  })

  it('counts requests without a token too, so guessing tokens is limited', async () => {
    const t = await createTestApp()
    for (let i = 0; i < 120; i++) expect((await t.call('GET', '/v1/me', { token: 'sps_guess' })).status).toBe(401)
    expect((await t.call('GET', '/v1/me')).status).toBe(429)
  })

  it('gives bulk, uploads and variants their own limits', () => {
    // The buckets the routes declare, as the app resolves them.
    const bucketFor = bucketResolver(registerRoutes(new OpenAPIHono()))
    expect(bucketFor('POST', '/v1/posts/bulk')).toBe('bulk')
    expect(bucketFor('POST', '/v1/media/uploads')).toBe('uploads')
    expect(bucketFor('POST', '/v1/media/med_123/variants')).toBe('variants')
    expect(bucketFor('GET', '/v1/posts/bulk')).toBe('default')
    expect(bucketFor('POST', '/v1/posts')).toBe('default')
  })
})
