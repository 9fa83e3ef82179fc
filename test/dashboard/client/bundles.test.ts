import { gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { buildClient, clientEntries } from '../../../bin/build-client.js'
import { CLIENT_BUNDLES } from '../../../src/dashboard/assets/client-bundles.generated'
import { account } from '../../support/fixtures'
import { mountContentPages } from '../../support/dashboard-pages'

/** Budget per page script (issue 32): 60 KB gzip. */
const BUDGET_GZIP_BYTES = 60 * 1024

// The page scripts: TypeScript under src/dashboard/client/, bundled by bin/build-client.js (run by the
// global setup) into the generated module the dashboard serves.
describe('page scripts', () => {
  it('are built from every entry of src/dashboard/client/, and the served module is what the sources build', async () => {
    expect(Object.keys(CLIENT_BUNDLES).sort()).toEqual(clientEntries().map((e) => e.page))
    expect(Object.keys(CLIENT_BUNDLES)).toEqual(expect.arrayContaining(['calendar', 'composer', 'upload']))
    // The global setup built them: building again from the same sources writes nothing.
    expect(await buildClient()).toBe(false)
  })

  it('each fits the budget of 60 KB gzip, minified', () => {
    const sizes: Record<string, { raw: number; gzip: number }> = {}
    for (const [page, { code }] of Object.entries(CLIENT_BUNDLES)) {
      sizes[page] = { raw: Buffer.byteLength(code), gzip: gzipSync(code, { level: 9 }).length }
      expect(sizes[page].gzip, page).toBeLessThanOrEqual(BUDGET_GZIP_BYTES)
      expect(code, page).not.toMatch(/\n\s+\n/) // minified: no blank lines, no indentation
    }
    console.info('page scripts (bytes):', JSON.stringify(sizes))
  })

  it('are served as JavaScript: by hashed name cached for good, by plain name revalidated by ETag', async () => {
    const p = await mountContentPages()
    for (const [page, { code, hash }] of Object.entries(CLIENT_BUNDLES)) {
      const hashed = await p.absolute(`/app/assets/${page}.${hash}.js`)
      expect(hashed.status, page).toBe(200)
      expect(hashed.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
      expect(hashed.headers.get('cache-control')).toContain('immutable')
      expect(await hashed.text()).toBe(code)

      const plain = await p.absolute(`/app/assets/${page}.js`)
      expect(plain.status).toBe(200)
      expect(plain.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
      expect(plain.headers.get('cache-control')).not.toContain('immutable')
      const tag = plain.headers.get('etag')
      expect(tag).toBeTruthy()
      const again = await p.absolute(`/app/assets/${page}.js`, { headers: { 'if-none-match': tag! } })
      expect(again.status).toBe(304)
    }
    expect((await p.absolute('/app/assets/composer.000000000000.js')).status).toBe(404)
  })

  it('pages link only same-origin scripts, at their current hashed names, under a CSP allowing only self', async () => {
    const p = await mountContentPages()
    await account(p.t, 'MICROBLOG_NET')
    const expected: Record<string, string[]> = {
      '/compose': ['composer', 'upload'],
      '/calendar': ['calendar'],
      '/media': ['upload'],
    }
    for (const [path, pages] of Object.entries(expected)) {
      const res = await p.get(path)
      expect(res.headers.get('content-security-policy')).toMatch(/script-src 'self'(;|$)/)
      const html = await res.text()
      const sources = [...html.matchAll(/<script\b[^>]*>/g)].map(([tag]) => /\ssrc="([^"]+)"/.exec(tag)?.[1])
      expect(sources, path).toEqual(pages.map((page) => `/app/assets/${page}.${CLIENT_BUNDLES[page]!.hash}.js`))
    }
  })
})
