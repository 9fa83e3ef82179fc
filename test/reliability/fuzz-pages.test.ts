/**
 * Property-based fuzz of every page and form outside `/v1` (support/fuzz-pages.ts): the dashboard
 * signed in with its CSRF token, sign-in and sign-up, the agents' OAuth endpoints, hosted connect and
 * the sandbox network's pages, with plausible, hostile and unstorable values in every field, in every
 * body encoding (url-encoded, multipart with and without its boundary, JSON, text, none, a garbage
 * type). Whatever comes in, no answer is a 5xx, none takes 5 s, and no body or log line shows a
 * stack trace, SQL or a secret.
 *
 * PAGES_FUZZ_SEED replays a run (the seed is printed; fast-check prints the seed and `path` of a
 * failure, and PAGES_FUZZ_PATH with the same seed goes straight to it); PAGES_FUZZ_RUNS scales it
 * (default 5200 requests); PAGES_FUZZ_REPORT=1 prints the statuses per route; PAGES_FUZZ_TRACE=1 prints each
 * request.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createLeakWatch } from './support/leaks'
import { type Family, PAGE_ROUTES, type PageRequest, pageRequestsFor } from './support/fuzz-pages'
import { renderPageRequest } from './support/fuzz-pages-render'
import { createPagesWorld } from './support/fuzz-pages-workspace'

const DEFAULT_SEED = 20_261_127
const seed = Number(process.env.PAGES_FUZZ_SEED ?? DEFAULT_SEED)
const numRuns = Number(process.env.PAGES_FUZZ_RUNS ?? 5200)
const SLOW_MS = 5000
/** How often the owner's session is checked (a fuzzed form may have signed it out or changed it). */
const HEAL_EVERY = 50

/** The secret a token page shows once, on purpose: not a leak. */
const withoutNewToken = (text: string) => text.replace(/(data-testid="new-token">\s*)sps_\w+/, '$1[new token]')

describe('fuzz: every page and form outside /v1', () => {
  it(`answers no 5xx, in time, without leaking (seed ${seed})`, async () => {
    const started = Date.now()
    const logLines: string[] = []
    const leaks = createLeakWatch()
    const world = await createPagesWorld(logLines)
    // The forms' CSRF tokens are in their pages by design; the session cookie and the API token never are.
    leaks.secret(world.t.token, world.session().cookie.split('=')[1])

    const pick = (pool: string, index: number) => {
      const ids = world.pools[pool] ?? []
      return ids.length > 0 ? ids[index % ids.length]! : `${pool}_empty`
    }
    const perFamily = new Map<Family, number>()
    const encodings = new Map<string, number>()
    const statuses = new Map<number, number>()
    const perRoute = new Map<string, Map<number, number>>()
    let requests = 0
    let healed = 0

    const send = async (req: PageRequest) => {
      requests++
      const ip = `10.${100 + ((requests >> 16) & 127)}.${(requests >> 8) & 255}.${requests & 255}`
      const ctx = { pick, session: world.session(), formToken: world.formToken }
      const { url, init, text } = renderPageRequest(req, ctx, ip)
      const where = `${init.method} ${url.slice(0, 200)} type=${(init.headers as Record<string, string>)['content-type'] ?? '-'} body=${JSON.stringify(text.slice(0, 200))}`
      const start = performance.now()
      const res = await world.t.app.request(url, init)
      const body = await res.text()
      const elapsed = performance.now() - start
      perFamily.set(req.route.family, (perFamily.get(req.route.family) ?? 0) + 1)
      const encoding = init.method === 'GET' ? 'GET' : req.encoding
      encodings.set(encoding, (encodings.get(encoding) ?? 0) + 1)
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1)
      const routeKey = `${req.route.method} ${req.route.path}`
      const seen = perRoute.get(routeKey) ?? new Map<number, number>()
      perRoute.set(routeKey, seen.set(res.status, (seen.get(res.status) ?? 0) + 1))
      leaks.record(`${where} -> ${res.status}`, withoutNewToken(body))
      if (process.env.PAGES_FUZZ_TRACE) console.log('TRACE', where, '->', res.status, body.slice(0, 200))
      if (res.status >= 500) {
        const id = res.headers.get('x-request-id') ?? '?'
        const logged = logLines.filter((l) => l.includes(id)).map((l) => l.slice(0, 600))
        expect.fail(`${where} -> ${res.status} ${body.slice(0, 300)}\nlogged: ${logged.join('\n')}`)
      }
      expect(elapsed, `${where}: took ${Math.round(elapsed)} ms`).toBeLessThan(SLOW_MS)
      const signedOut = res.headers.get('location')?.startsWith('/app/sign-in') && req.route.family === 'dashboard'
      if ((signedOut || requests % HEAL_EVERY === 0) && (await world.heal())) healed++
      if (requests % HEAL_EVERY === 0) await world.replenish()
    }

    const anyRequest = fc.oneof(...PAGE_ROUTES.map(pageRequestsFor))
    const replay = process.env.PAGES_FUZZ_PATH ? { path: process.env.PAGES_FUZZ_PATH, endOnFailure: true } : {}
    await fc.assert(fc.asyncProperty(anyRequest, send), { seed, numRuns, ...replay })

    for (const line of logLines) leaks.record('log', line)
    const list = <K>(m: Map<K, number>) => [...m.entries()].map(([k, n]) => `${k}:${n}`).join(' ')
    const seconds = ((Date.now() - started) / 1000).toFixed(1)
    console.log(
      `pages fuzz: seed=${seed} requests=${requests} routes=${PAGE_ROUTES.length} families={${list(perFamily)}} ` +
        `encodings={${list(encodings)}} statuses={${list(new Map([...statuses].sort(([a], [b]) => a - b)))}} ` +
        `sessions renewed=${healed} scanned=${leaks.scanned().texts} duration=${seconds}s`,
    )
    if (process.env.PAGES_FUZZ_REPORT) for (const [route, seen] of perRoute) console.log(route, list(seen))
    expect(requests).toBeGreaterThanOrEqual(Math.min(numRuns, 5000))
    expect([...perFamily.keys()].sort()).toEqual(['connect', 'dashboard', 'oauth2', 'review', 'sandbox', 'sign-in/up'])
    expect(leaks.leaks()).toEqual([])
  })
})
