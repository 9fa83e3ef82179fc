/// <reference types="@cloudflare/workers-types" />
/// <reference types="@cloudflare/vitest-pool-workers/types" />
import { exports } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'

/** The Worker's default export as the runtime calls it. */
const self = (exports as unknown as { default: Fetcher }).default
const get = (path: string) =>
  self.fetch(`https://api.test${path}`, { headers: { 'CF-Connecting-IP': `docs-${crypto.randomUUID()}` } })

describe('the reference at /docs, inside workerd', () => {
  it('serves the page and Swagger UI from the Worker bundle itself', async () => {
    const page = await get('/docs')
    expect(page.status).toBe(200)
    expect(page.headers.get('Content-Security-Policy')).toContain("script-src 'self'")
    const html = await page.text()
    expect(html).toContain('/docs/swagger-ui-bundle.js')
    const script = await get('/docs/swagger-ui-bundle.js')
    expect(script.status).toBe(200)
    expect(script.headers.get('Content-Type')).toMatch(/^text\/javascript/)
    const text = await script.text()
    expect(text.length).toBeGreaterThan(500_000)
    expect(text).toContain('SwaggerUIBundle')
    const css = await get('/docs/swagger-ui.css')
    expect(css.status).toBe(200)
    expect(css.headers.get('Content-Type')).toMatch(/^text\/css/)
    expect(await css.text()).toContain('.swagger-ui')
  })
})
