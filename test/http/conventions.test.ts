import { describe, expect, it } from 'vitest'
import { parseNodeConfig } from '../../src/config'
import { createTestApp, type TestAppOptions } from '../support/test-app'

const APP_ORIGIN = 'https://app.example.test'

/** A test app whose settings allow browser calls from `origins` (CORS_ORIGINS). */
const withCors = (origins: string[], options: TestAppOptions = {}) =>
  createTestApp({ ...options, parts: (p) => ({ ...p, settings: { ...p.settings, corsOrigins: origins } }) })

const preflight = (origin: string) => ({
  origin,
  'access-control-request-method': 'POST',
  'access-control-request-headers': 'authorization, content-type, idempotency-key',
})

describe('CORS', () => {
  it('reads CORS_ORIGINS as a list of exact origins, empty when unset, and refuses an origin with a path', () => {
    expect(parseNodeConfig({}).CORS_ORIGINS).toEqual([])
    expect(parseNodeConfig({ CORS_ORIGINS: '' }).CORS_ORIGINS).toEqual([])
    expect(parseNodeConfig({ CORS_ORIGINS: ` ${APP_ORIGIN}, http://localhost:5173 ,` }).CORS_ORIGINS).toEqual([
      APP_ORIGIN,
      'http://localhost:5173',
    ])
    expect(() => parseNodeConfig({ CORS_ORIGINS: 'https://app.example.test/path' })).toThrow(/CORS_ORIGINS/)
  })

  it('answers a preflight from an allowed origin without a token, and does not count it as a call', async () => {
    const t = await withCors([APP_ORIGIN])
    const res = await t.call('OPTIONS', '/v1/posts', { token: null, headers: preflight(APP_ORIGIN) })
    expect(res.status).toBe(204)
    expect(res.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN)
    expect(res.headers.get('access-control-allow-methods')).toContain('POST')
    const allowed = res.headers.get('access-control-allow-headers')?.toLowerCase().split(',') ?? []
    expect(allowed).toEqual(expect.arrayContaining(['authorization', 'content-type', 'idempotency-key']))
    expect(res.headers.get('ratelimit-limit')).toBeNull()
    expect(res.headers.get('www-authenticate')).toBeNull()
    const next = await t.call('GET', '/v1/me')
    expect(next.headers.get('ratelimit-remaining')).toBe('119')
  })

  it('lets a browser read the headers a client needs, on successes and errors alike', async () => {
    const t = await withCors([APP_ORIGIN, 'http://localhost:5173'])
    for (const res of [
      await t.call('GET', '/v1/me', { headers: { origin: APP_ORIGIN } }),
      await t.call('GET', '/v1/me', { token: null, headers: { origin: APP_ORIGIN } }),
    ]) {
      expect(res.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN)
      expect(res.headers.get('vary')).toContain('Origin')
      const exposed = res.headers.get('access-control-expose-headers')?.split(',') ?? []
      expect(exposed).toEqual(
        expect.arrayContaining([
          'RateLimit-Limit',
          'RateLimit-Remaining',
          'RateLimit-Reset',
          'Retry-After',
          'X-Request-Id',
          'Idempotent-Replayed',
          'Location',
        ]),
      )
    }
  })

  it('gives no CORS header to another origin, nor to anyone when CORS_ORIGINS is empty', async () => {
    const t = await withCors([APP_ORIGIN])
    const other = await t.call('GET', '/v1/me', { headers: { origin: 'https://evil.example.test' } })
    expect(other.status).toBe(200)
    expect(other.headers.get('access-control-allow-origin')).toBeNull()

    const closed = await createTestApp()
    const res = await closed.call('GET', '/v1/me', { headers: { origin: APP_ORIGIN } })
    expect([...res.headers.keys()].filter((k) => k.startsWith('access-control-'))).toEqual([])
    // Without CORS a preflight is just an unauthenticated request.
    const pre = await closed.call('OPTIONS', '/v1/posts', { token: null, headers: preflight(APP_ORIGIN) })
    expect(pre.status).toBe(401)
    expect(pre.headers.get('access-control-allow-origin')).toBeNull()
  })
})

describe('WWW-Authenticate', () => {
  it('is Bearer on a 401 without a token, and says invalid_token when a token was refused', async () => {
    const t = await createTestApp()
    const none = await t.call('GET', '/v1/me', { token: null })
    expect(none.status).toBe(401)
    expect(none.headers.get('www-authenticate')).toBe('Bearer')
    const basic = await t.call('GET', '/v1/me', { token: null, headers: { authorization: 'Basic dXNlcjpwYXNz' } })
    expect(basic.headers.get('www-authenticate')).toBe('Bearer')
    for (const token of [`sps_${'x'.repeat(43)}`, 'not-a-token', 'two parts']) {
      const refused = await t.call('GET', '/v1/me', { token })
      expect(refused.status).toBe(401)
      expect(refused.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"')
    }
    expect((await t.call('GET', '/v1/me')).headers.get('www-authenticate')).toBeNull()
  })
})

describe('405 Method Not Allowed', () => {
  it('answers a known path with another method 405, Allow listing the methods its routes take', async () => {
    const t = await createTestApp()
    const res = await t.call('DELETE', '/v1/queue-slots')
    expect(res.status).toBe(405)
    expect(res.headers.get('allow')).toBe('GET, HEAD, PUT')
    const body = await res.json()
    expect(body.error.code).toBe('method_not_allowed')
    expect(body.error.requestId).toBe(res.headers.get('x-request-id'))

    const post = await t.call('PUT', '/v1/posts/post_unknown', { body: {} })
    expect(post.status).toBe(405)
    expect(post.headers.get('allow')).toBe('DELETE, GET, HEAD, PATCH')
    expect((await t.call('POST', '/v1/openapi.json')).headers.get('allow')).toBe('GET, HEAD')
    expect((await t.call('GET', '/v1/media/med_x/variants')).headers.get('allow')).toBe('POST')
  })

  it('keeps 404 for an unknown path, and 401 before 405 without a token', async () => {
    const t = await createTestApp()
    expect((await t.call('GET', '/v1/no-such-route')).status).toBe(404)
    expect((await t.call('DELETE', '/v1/queue-slots', { token: null })).status).toBe(401)
  })
})

describe('request ids', () => {
  it('keeps a valid incoming X-Request-Id and replaces any other', async () => {
    const t = await createTestApp()
    const kept = await t.call('GET', '/v1/nope', { headers: { 'x-request-id': 'trace-01:abc.DEF_9' } })
    expect(kept.headers.get('x-request-id')).toBe('trace-01:abc.DEF_9')
    expect((await kept.json()).error.requestId).toBe('trace-01:abc.DEF_9')
    for (const bad of ['x'.repeat(129), 'has space', 'semi;colon', '"quoted"']) {
      const res = await t.call('GET', '/v1/me', { headers: { 'x-request-id': bad } })
      expect(res.headers.get('x-request-id')).toMatch(/^req_[0-9A-Za-z]{20}$/)
    }
    const long = 'a'.repeat(128)
    expect((await t.call('GET', '/v1/me', { headers: { 'x-request-id': long } })).headers.get('x-request-id')).toBe(
      long,
    )
  })
})

describe('request log', () => {
  it('writes one info line per request with the route pattern, never a token, query or body', async () => {
    const logLines: string[] = []
    const t = await createTestApp({ logLines })
    await t.call('GET', '/v1/posts/post_doesnotexist', { headers: { 'x-request-id': 'trace-log-1' } })
    await t.call('GET', '/v1/posts?q=query-secret-value')
    await t.call('POST', '/v1/posts', { body: { caption: 'body-secret-value', accountIds: [] } })
    await t.call('GET', '/v1/me', { token: 'sps_refused' })
    const requests = logLines.map((l) => JSON.parse(l)).filter((l) => l.event === 'request')
    expect(requests).toHaveLength(4)
    expect(requests[0]).toEqual({
      time: expect.any(String),
      level: 'info',
      event: 'request',
      method: 'GET',
      route: '/v1/posts/:id',
      status: 404,
      durationMs: expect.any(Number),
      requestId: 'trace-log-1',
      workspaceId: t.workspaceId,
    })
    expect(requests.map((r) => [r.method, r.route, r.status])).toEqual([
      ['GET', '/v1/posts/:id', 404],
      ['GET', '/v1/posts', 200],
      ['POST', '/v1/posts', 400],
      ['GET', '/v1/me', 401],
    ])
    expect(requests[3].workspaceId).toBeUndefined()
    const all = logLines.join('\n')
    for (const secret of [t.token, 'sps_refused', 'query-secret-value', 'body-secret-value', 'post_doesnotexist'])
      expect(all).not.toContain(secret)
  })
})
