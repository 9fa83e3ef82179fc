/// <reference types="@cloudflare/workers-types" />
/// <reference types="@cloudflare/vitest-pool-workers/types" />
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { env, exports } from 'cloudflare:workers'
import { describe, expect, inject, it } from 'vitest'
import worker from '../../src/entry/worker'

/**
 * Runs inside workerd: the Worker's own fetch handler (wrangler.toml `main`), its bindings from
 * vitest.worker.config.ts, answering from PostgreSQL through the Neon driver (WebSocket proxy) and
 * counting requests in Redis through the Upstash REST protocol.
 */
const fixture = inject('workerSmoke')
const bindings = env as unknown as Record<string, string>
/** The Worker's default export as the runtime calls it (the deprecated SELF). */
const self = (exports as unknown as { default: Fetcher }).default
/** Each test counts against a client IP of its own, so a real Redis shared by runs never skews a count. */
const newClientIp = () => `smoke-${crypto.randomUUID()}`

function get(path: string, headers: Record<string, string> = {}, clientIp = newClientIp()) {
  return self.fetch(`https://api.test${path}`, { headers: { 'CF-Connecting-IP': clientIp, ...headers } })
}

describe(`Worker in workerd (database: ${fixture.database}, redis: ${fixture.redis})`, () => {
  it('is workerd', () => {
    expect(navigator.userAgent).toBe('Cloudflare-Workers')
  })

  it('answers GET /v1/me from PostgreSQL through the Neon driver', async () => {
    const res = await get('/v1/me', { Authorization: `Bearer ${fixture.token}` })
    const body = (await res.json()) as { workspaceId: string; name: string; plan: { id: string } }
    expect(res.status, JSON.stringify(body)).toBe(200)
    expect(body.workspaceId).toBe(fixture.workspaceId)
    expect(body.name).toBe('Worker smoke')
    expect(body.plan).toMatchObject({ id: fixture.planId, name: 'Pro' })
    expect(res.headers.get('RateLimit-Limit')).toBe('120')
  })

  it('answers 401 with the contract error body without a token', async () => {
    const res = await get('/v1/me')
    expect(res.status).toBe(401)
    const requestId = res.headers.get('X-Request-Id')
    expect(requestId).toMatch(/\S/)
    expect(await res.json()).toEqual({ error: { code: 'unauthorized', message: expect.any(String), requestId } })
    expect(res.headers.get('RateLimit-Limit')).toBe('120')
  })

  it('counts requests in Redis through the Upstash limiter (not its fail-open fallback)', async () => {
    // Fail-open answers always carry remaining = limit - 1; a real count goes down request by request.
    const clientIp = newClientIp()
    const remaining: number[] = []
    for (let i = 0; i < 3; i++) {
      const res = await get('/v1/me', {}, clientIp)
      expect(res.headers.get('RateLimit-Limit')).toBe('120')
      remaining.push(Number(res.headers.get('RateLimit-Remaining')))
    }
    expect(remaining).toEqual([119, 118, 117])
    // And the counter is in the Redis behind the REST endpoint the Worker was given.
    const keys = await fetch(bindings.UPSTASH_REDIS_REST_URL!, {
      method: 'POST',
      headers: { Authorization: `Bearer ${bindings.UPSTASH_REDIS_REST_TOKEN}` },
      body: JSON.stringify(['KEYS', `ratelimit:default:${clientIp}:*`]),
    }).then((r) => r.json() as Promise<{ result: string[] }>)
    expect(keys.result.length).toBeGreaterThan(0)
  })

  it('answers 500 internal_error, without any binding value, when misconfigured', async () => {
    const broken: Record<string, unknown> = { ...bindings, DATABASE_URL: undefined }
    const ctx = createExecutionContext()
    const res = await worker.fetch(
      new Request('https://api.test/v1/me', { headers: { Authorization: `Bearer ${fixture.token}` } }),
      broken,
      ctx,
    )
    await waitOnExecutionContext(ctx)
    expect(res.status).toBe(500)
    const requestId = res.headers.get('X-Request-Id')
    const text = await res.text()
    expect(JSON.parse(text)).toEqual({ error: { code: 'internal_error', message: expect.any(String), requestId } })
    for (const [key, value] of Object.entries(bindings)) {
      if (typeof value === 'string' && value.length >= 6) expect(text, `leaks ${key}`).not.toContain(value)
    }
  })
})
