/**
 * What the dashboard answers when a page breaks: an HTML page with the request id (logged, never the
 * error itself), and the API's JSON error body only for a script that asks for JSON.
 */
import { describe, expect, it } from 'vitest'
import { withBrokenReads } from '../support/broken-reads'
import { createTestApp, type TestApp } from '../support/test-app'

/** A session cookie of the right shape: looking it up is the page's first read. */
const SESSION_COOKIE = `sps_session=${'a'.repeat(43)}`

/** An app whose database fails every read inside the driver, with SQL in the error's message. */
async function brokenApp(logLines: string[]): Promise<TestApp> {
  return createTestApp({
    logLines,
    parts: (parts) => withBrokenReads(parts, 'select "user_id" from "sessions" where token_hash=1'),
  })
}

describe('dashboard error pages', () => {
  it('answers a page that breaks with an HTML 500 naming the request id, and logs it without the SQL', async () => {
    const logLines: string[] = []
    const t = await brokenApp(logLines)
    const res = await t.app.request('/app', { headers: { Cookie: SESSION_COOKIE } })
    expect(res.status).toBe(500)
    expect(res.headers.get('content-type')).toMatch(/^text\/html/)
    const requestId = res.headers.get('x-request-id')!
    expect(requestId).toMatch(/^req_/)
    const html = await res.text()
    expect(html).toContain('>Something went wrong</h1>')
    expect(html).toContain(`<code>${requestId}</code>`)
    expect(html).not.toMatch(/select|sessions|token_hash|at .*\.ts|Error:/i)
    const logged = logLines.join('\n')
    expect(logged).toContain('request_failed')
    expect(logged).toContain(requestId)
    expect(logged).not.toMatch(/token_hash=1/)
  })

  it("answers a page's script that asks for JSON with the API's error body", async () => {
    const t = await brokenApp([])
    const res = await t.app.request('/app', {
      headers: { Cookie: SESSION_COOKIE, Accept: 'application/json' },
    })
    expect(res.status).toBe(500)
    const body = (await res.json()) as { error: { code: string; requestId: string } }
    expect(body.error.code).toBe('internal_error')
    expect(body.error.requestId).toBe(res.headers.get('x-request-id'))
  })
})
