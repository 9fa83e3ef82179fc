/**
 * The dashboard's error pages as a member meets them: HTML in the dashboard's frame with the right
 * status, what happened and a way out; the wait in words (and Retry-After) for a 429; the field and a
 * link back to the form for a refused input; and the project's icon.
 */
import { describe, expect, it } from 'vitest'
import type { RateLimiter } from '../../src/infra/ratelimit/types'
import { BRAND_MARK_PATH, flattenPath } from '../../src/dashboard/assets/favicon'
import { waitInWords } from '../../src/dashboard/ui/error-view'
import { mountContentPages } from '../support/dashboard-pages'
import { createTestApp } from '../support/test-app'

/** A limiter that has spent every client's allowance, with the window ending in `seconds`. */
const spentLimiter = (seconds: number): RateLimiter => ({
  check: async () => ({ allowed: false, limit: 120, remaining: 0, resetAt: Date.now() + seconds * 1000 }),
})

/** The page's status line and heading, and that it is a whole HTML document with the stylesheet and icon. */
function expectErrorDocument(html: string, status: number, title: string) {
  expect(html).toMatch(/^<!DOCTYPE html>|^<html/)
  expect(html).toContain('<link rel="stylesheet" href="/app/assets/app.css"/>')
  expect(html).toContain('<link rel="icon" href="/app/assets/icon.svg" type="image/svg+xml"/>')
  expect(html).toContain(`Error ${status}`)
  expect(html).toContain(`>${title}</h1>`)
}

describe('dashboard error pages', () => {
  it('answers an unknown page with a 404 page leading to the workspace', async () => {
    const p = await mountContentPages()
    const res = await p.absolute('/app/no-such-page')
    expect(res.status).toBe(404)
    expect(res.headers.get('content-type')).toMatch(/^text\/html/)
    const html = await res.text()
    expectErrorDocument(html, 404, 'Page not found')
    expect(html).toContain('<a href="/app" class="btn">Go to your workspace</a>')
  })

  it('answers a form without its CSRF token with a 403 page saying why', async () => {
    const p = await mountContentPages()
    const res = await p.post('/compose', { caption: 'hello' }, { csrf: 'forged' })
    expect(res.status).toBe(403)
    const html = await res.text()
    expectErrorDocument(html, 403, 'Not allowed')
    expect(html).toContain('This form expired or did not come from this site.')
  })

  it('answers a refused form with the field in question and a link back to the form it came from', async () => {
    const p = await mountContentPages()
    const res = await p.request('/compose', {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        referer: `http://localhost${p.page('/compose')}`,
      },
      body: new URLSearchParams({ _csrf: p.csrfToken, caption: 'nul \u0000 here' }),
    })
    expect(res.status).toBe(400)
    const html = await res.text()
    expectErrorDocument(html, 400, 'Not accepted')
    expect(html).toContain('The field “caption”')
    expect(html).toContain(`<a href="${p.page('/compose')}" class="btn">Go back to the form</a>`)
    // Another site as the referer is never linked.
    const elsewhere = await p.request('/compose', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', referer: 'https://evil.example/app/x' },
      body: new URLSearchParams({ _csrf: p.csrfToken, caption: 'nul \u0000 here' }),
    })
    const other = await elsewhere.text()
    expect(other).not.toContain('evil.example')
    expect(other).toContain('<a href="/app" class="btn">Back to the dashboard</a>')
  })

  it('answers past the rate limit with a 429 page giving the wait in words and Retry-After, and JSON to a script', async () => {
    const t = await createTestApp({ parts: (parts) => ({ ...parts, rateLimiter: spentLimiter(150) }) })
    const res = await t.app.request('/app/sign-in', { headers: { 'x-forwarded-for': t.ip } })
    expect(res.status).toBe(429)
    expect(res.headers.get('content-type')).toMatch(/^text\/html/)
    const retryAfter = Number(res.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThanOrEqual(150)
    expect(retryAfter).toBeLessThanOrEqual(152)
    const html = await res.text()
    expectErrorDocument(html, 429, 'Too many requests')
    expect(html).toContain(`Try again in <strong>${waitInWords(retryAfter)}</strong>`)
    expect(html).toContain(`<code>${res.headers.get('x-request-id')}</code>`)

    const script = await t.app.request('/app/sign-in', {
      headers: { 'x-forwarded-for': t.ip, accept: 'application/json' },
    })
    expect(script.status).toBe(429)
    expect(((await script.json()) as { error: { code: string } }).error.code).toBe('rate_limited')
    // The API keeps its JSON.
    const api = await t.call('GET', '/v1/me')
    expect(api.status).toBe(429)
    expect(api.headers.get('content-type')).toMatch(/json/)
  })

  it('says a wait in words, rounded up', () => {
    expect(waitInWords(1)).toBe('1 second')
    expect(waitInWords(45)).toBe('45 seconds')
    expect(waitInWords(61)).toBe('2 minutes')
    expect(waitInWords(150)).toBe('3 minutes')
    expect(waitInWords(3600)).toBe('1 hour')
    expect(waitInWords(3900)).toBe('1 hour and 5 minutes')
  })
})

describe('the icon', () => {
  it('answers /favicon.ico with an ICO holding a 32x32 PNG, and the pages link the SVG', async () => {
    const t = await createTestApp()
    const ico = await t.app.request('/favicon.ico')
    expect(ico.status).toBe(200)
    expect(ico.headers.get('content-type')).toBe('image/x-icon')
    const bytes = new Uint8Array(await ico.arrayBuffer())
    expect([...bytes.subarray(0, 6)]).toEqual([0, 0, 1, 0, 1, 0])
    expect([bytes[6], bytes[7]]).toEqual([32, 32])
    expect(Buffer.from(bytes.subarray(22, 26)).toString('latin1')).toBe('\x89PNG')

    const svg = await t.app.request('/app/assets/icon.svg')
    expect(svg.status).toBe(200)
    expect(svg.headers.get('content-type')).toBe('image/svg+xml')
    expect(await svg.text()).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/)
    const signIn = await (await t.app.request('/app/sign-in')).text()
    expect(signIn).toContain('<link rel="icon" href="/app/assets/icon.svg" type="image/svg+xml"/>')
  })

  it("rasterizes the brand's own mark: its arcs go round the circle they are drawn on", () => {
    const [upper, lower, arrowA, arrowB] = flattenPath(BRAND_MARK_PATH)
    // The upper arc (from 4,12 clockwise to 18,6.7 on the circle of radius 8 around 12,12) passes over the top.
    for (const [x, y] of upper!) expect(Math.hypot(x - 12, y - 12)).toBeCloseTo(8, 1)
    expect(Math.min(...upper!.map(([, y]) => y))).toBeCloseTo(4, 1)
    expect(Math.max(...lower!.map(([, y]) => y))).toBeCloseTo(20, 1)
    expect(arrowA).toEqual([
      [15, 3],
      [18.5, 6.7],
      [14.5, 9],
    ])
    expect(arrowB).toEqual([
      [9, 21],
      [5.5, 17.3],
      [9.5, 15],
    ])
  })
})
