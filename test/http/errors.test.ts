import { describe, expect, it } from 'vitest'
import { withBrokenReads } from '../support/broken-reads'
import { toAppError } from '../../src/http/error-response'
import { createTestApp } from '../support/test-app'

describe('error bodies', () => {
  it('answers unknown routes with 404 in the contract body, request id in header and body', async () => {
    const t = await createTestApp()
    const res = await t.call('GET', '/v1/nothing-here')
    expect(res.status).toBe(404)
    const body = await res.json()
    expect(body).toEqual({
      error: { code: 'not_found', message: expect.any(String), requestId: expect.stringMatching(/^req_/) },
    })
    expect(res.headers.get('x-request-id')).toBe(body.error.requestId)
  })

  it('gives every answer its own request id', async () => {
    const t = await createTestApp()
    const a = await t.call('GET', '/v1/me')
    const b = await t.call('GET', '/v1/me')
    expect(a.headers.get('x-request-id')).toMatch(/^req_/)
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'))
  })

  it('answers malformed JSON with 400 invalid_request', async () => {
    const t = await createTestApp()
    const res = await t.call('PUT', '/v1/queue-slots', { body: '{"slots": [' })
    expect(res.status).toBe(400)
    expect((await res.json()).error.code).toBe('invalid_request')
  })

  it('reports one detail per bad field', async () => {
    const t = await createTestApp()
    const res = await t.call('PUT', '/v1/queue-slots', {
      body: {
        slots: [
          { weekday: 9, time: '9:30' },
          { weekday: 'monday', time: '10:00' },
        ],
      },
    })
    expect(res.status).toBe(400)
    const body = await res.json()
    expect(body.error.code).toBe('invalid_request')
    const paths = body.error.details.map((d: { path: string }) => d.path).sort()
    expect(paths).toEqual(['slots.0.time', 'slots.0.weekday', 'slots.1.weekday'])
  })

  it('answers a body that is not JSON with 415', async () => {
    const t = await createTestApp()
    const res = await t.call('PUT', '/v1/queue-slots', {
      body: 'slots=1',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect(res.status).toBe(415)
    expect((await res.json()).error.code).toBe('unsupported_media_type')
    const untyped = await t.app.request('/v1/queue-slots', {
      method: 'PUT',
      body: '{"slots":[]}',
      headers: { authorization: `Bearer ${t.token}`, 'x-forwarded-for': t.ip },
    })
    // fetch gives a string body text/plain; without a JSON type the API refuses it.
    expect(untyped.status).toBe(415)
  })

  it('answers a body over the cap with 413', async () => {
    const t = await createTestApp()
    const huge = JSON.stringify({ slots: [], padding: 'x'.repeat(1_100_000) })
    const res = await t.call('PUT', '/v1/queue-slots', { body: huge })
    expect(res.status).toBe(413)
    expect((await res.json()).error.code).toBe('payload_too_large')
  })

  it('never leaks a stack trace or SQL when something breaks', async () => {
    const logLines: string[] = []
    // Break the database under the app: every query now fails inside the driver.
    const t = await createTestApp({
      logLines,
      parts: (parts) => withBrokenReads(parts, 'select "token_hash" from "api_tokens" where secret=1'),
    })
    const res = await t.call('GET', '/v1/me')
    expect(res.status).toBe(500)
    const text = await res.text()
    expect(JSON.parse(text).error.code).toBe('internal_error')
    expect(text).not.toMatch(/select|api_tokens|at .*\.ts|Error:/i)
    const logged = logLines.join('\n')
    expect(logged).toContain('request_failed')
    expect(logged).not.toMatch(/select|api_tokens|secret|\.ts:/i)
  })
})

describe('a full disk', () => {
  const driverError = (code: string, message: string) => Object.assign(new Error(message), { code })
  it("is 503 service_unavailable saying the disk is full, under Drizzle's wrapping or a file write's ENOSPC", () => {
    const pglite = new Error('Failed query: insert into "posts" ...', {
      cause: driverError('53100', 'could not extend file "base/5/16385": No space left on device'),
    })
    const file = driverError('ENOSPC', "ENOSPC: no space left on device, write '/data/s3/x'")
    for (const err of [pglite, file]) {
      const appError = toAppError(err)
      expect(appError.code).toBe('service_unavailable')
      expect(appError.message).toContain("The server's disk is full")
      expect(appError.message).not.toMatch(/base\/5|insert|\/data/)
      expect(appError.retryAfterSec).toBe(60)
    }
    expect(toAppError(driverError('23505', 'duplicate key')).code).toBe('internal_error')
  })
})
