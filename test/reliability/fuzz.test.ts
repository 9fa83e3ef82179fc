/**
 * Schema-guided, property-based fuzz of every operation in the OpenAPI document: requests built
 * from each operation's schemas (real ids of the workspace mixed in, so they reach the handlers),
 * then bent. Whatever comes in, the answer is 200 or a 4xx in the contract's error body, within
 * 5 s; a refused request writes nothing; nothing leaks.
 *
 * FUZZ_SEED reproduces a run (fast-check prints the seed and `path` of a failure; FUZZ_PATH with
 * the same seed goes straight to that case, over the starting workspace only); FUZZ_RUNS scales it (default 5200 requests); FUZZ_REPORT=1 prints the
 * statuses per operation; FUZZ_TRACE='POST /v1/posts:' prints each request of that operation.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { OPENAPI_PATH } from '../../src/app'
import { ERROR_CODES } from '../../src/domain/errors'
import { ERROR_STATUS } from '../../src/http/errors'
import {
  dateTime,
  type OpenApiDoc,
  PoolRef,
  ref,
  refKey,
  type SchemaContext,
  Template,
} from './support/schema-arbitraries'
import { type FuzzRequest, operationsOf, render, requestsFor } from './support/fuzz-requests'
import { createFuzzWorkspace, snapshot } from './support/fuzz-workspace'
import { createLeakWatch } from './support/leaks'
import { isEventStream, streamOpening } from './support/stream-opening'

const DEFAULT_SEED = 20_251_124
const seed = Number(process.env.FUZZ_SEED ?? DEFAULT_SEED)
const numRuns = Number(process.env.FUZZ_RUNS ?? 5200)
const MAX_BODY_BYTES = 1_048_576
const SLOW_MS = 5000

const TIME_ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Pacific/Chatham', 'Etc/GMT+12']
const BAD_ZONES = ['Not/AZone', '', 'utc', '+05:00', 'Europe/../etc', 'x'.repeat(300)]
const MEDIA_TYPES = ['image/jpeg', 'image/png', 'video/mp4', 'image/gif', 'IMAGE/JPEG', 'image/jpeg; x=1']
const CSV_HEADERS = [
  'accountIds,caption,scheduledAt,action',
  '\ufeffcaption,accountIds,action,scheduledAt',
  'accountIds,caption,accountIds,action',
  'caption,bogus,scheduledAt,action',
]

/** Hints where a schema alone cannot give a value that reaches the handler: the workspace's own ids. */
function schemaContext(doc: OpenApiDoc): SchemaContext {
  const mixed = (pool: string, other: fc.Arbitrary<unknown>) =>
    fc.oneof(
      { arbitrary: ref(pool), weight: 24 },
      { arbitrary: ref('foreign'), weight: 1 },
      { arbitrary: other, weight: 1 },
    )
  const cell = fc.constantFrom('hello', '"quoted, text"', '', '😀', 'line\nbreak', 'x'.repeat(600))
  const row = fc
    .tuple(
      ref('accounts'),
      ref('accounts'),
      cell,
      fc.option(dateTime(), { nil: '' }),
      fc.constantFrom('draft', 'schedule', ''),
    )
    .map(([a, b, caption, when, action]) => [a, '|', b, `,"${caption.replace(/"/g, '""')}",${when},${action}\n`])
  const csv = fc
    .tuple(fc.constantFrom(...CSV_HEADERS), fc.array(row, { maxLength: 4 }))
    .map(([header, rows]) => new Template([`${header}\n`, ...rows.flat()]))
  return {
    doc,
    hints: {
      accountIds: fc.array(mixed('accounts', fc.string({ maxLength: 64 })), { minLength: 1, maxLength: 2 }),
      mediaIds: fc.oneof(
        { arbitrary: fc.constant([]), weight: 2 },
        fc.array(mixed('media', fc.string({ maxLength: 64 })), { minLength: 1, maxLength: 2 }),
      ),
      storageKey: mixed('tickets.key', fc.string()),
      url: mixed('tickets.url', fc.webUrl()),
      folderId: mixed('folders', fc.string()),
      linkUrl: fc.oneof(fc.webUrl(), fc.string()),
      contentType: fc.oneof({ arbitrary: fc.constantFrom(...MEDIA_TYPES), weight: 4 }, fc.string()),
      mimeType: fc.oneof({ arbitrary: fc.constantFrom(...MEDIA_TYPES), weight: 4 }, fc.string()),
      timezone: fc.oneof({ arbitrary: fc.constantFrom(...TIME_ZONES), weight: 4 }, fc.constantFrom(...BAD_ZONES)),
      csv,
      'idempotency-key': fc.oneof(
        fc.constantFrom('fuzz-1', 'fuzz-2', 'fuzz-3'),
        { arbitrary: fc.stringMatching(/^[\x21-\x7e]{1,40}$/), weight: 4 },
        fc.constantFrom('', ' ', 'x'.repeat(300), 'é', 'a b', 'tab\tkey'),
      ),
      // A header value is bytes: an event id or any visible ASCII (the event stream's resume point).
      'last-event-id': fc.oneof(
        { arbitrary: fc.stringMatching(/^[\x21-\x7e]{1,80}$/), weight: 4 },
        fc.constantFrom('', ' ', 'é', 'evt_3kqZ7m0pL2aYbN4tR8cVxd'),
      ),
    },
    mapKeys: fc.oneof({ arbitrary: refKey('accounts'), weight: 3 }, fc.string()),
  }
}

/** The contract's error body: exactly `{ error: { code, message, details?, requestId } }`, matching the status. */
function expectErrorBody(status: number, text: string, requestId: string | null, where: string) {
  let body: any
  expect(() => (body = JSON.parse(text)), `${where}: error body is not JSON: ${text.slice(0, 200)}`).not.toThrow()
  expect(Object.keys(body ?? {}), where).toEqual(['error'])
  const error = body.error
  expect(
    Object.keys(error).filter((k) => !['code', 'message', 'details', 'requestId'].includes(k)),
    where,
  ).toEqual([])
  expect(ERROR_CODES, where).toContain(error.code)
  expect(ERROR_STATUS[error.code as keyof typeof ERROR_STATUS], `${where}: status of ${error.code}`).toBe(status)
  expect(typeof error.message === 'string' && error.message.trim().length > 0, `${where}: message`).toBe(true)
  expect(error.requestId, where).toBe(requestId)
  if ('details' in error) {
    expect(Array.isArray(error.details) && error.details.length > 0, `${where}: details`).toBe(true)
    for (const d of error.details) expect(typeof d?.path, `${where}: details path`).toBe('string')
  }
}

const describeRequest = (req: FuzzRequest, url: string, headers: Record<string, string>, text?: string) => {
  const body = text === undefined ? '' : ` body(${text.length})=${JSON.stringify(text.slice(0, 300))}`
  return `${req.op}: ${req.method} ${url.slice(0, 300)} type=${headers['content-type'] ?? '-'}${body}`
}

/**
 * The refusals documented to write: a comment found deleted on its network is marked gone (409
 * `comment_gone`), and a reply whose outcome is unknown is kept `UNCONFIRMED` (409 `reply_unconfirmed`).
 */
const WRITING_REFUSALS = ['comment_gone', 'reply_unconfirmed']

describe('fuzz: every operation of the OpenAPI document, from its schemas', () => {
  const logLines: string[] = []
  const leaks = createLeakWatch()

  it(`answers 200 or the contract's 4xx, in time, writing nothing when refusing (seed ${seed})`, async () => {
    const started = Date.now()
    const w = await createFuzzWorkspace(logLines)
    const { t, foreign } = w
    leaks.secret(t.token, foreign.token)
    const doc = (await (await t.call('GET', OPENAPI_PATH)).json()) as OpenApiDoc
    const operations = operationsOf(doc)
    expect(operations.length).toBeGreaterThan(0)
    const ctx = schemaContext(doc)
    const perOperation = new Map(operations.map((op) => [op.key, new Map<number, number>()]))
    const statuses = new Map<number, number>()
    let requests = 0
    let writes = 0
    let before = await snapshot(t.deps.db, t.workspaceId)
    const foreignBefore = await snapshot(foreign.deps.db, foreign.workspaceId)

    const send = async (req: FuzzRequest) => {
      if (await w.replenish()) before = await snapshot(t.deps.db, t.workspaceId)
      requests++
      const ip = `10.${(requests >> 16) & 255}.${(requests >> 8) & 255}.${requests & 255}`
      const { url, init, text: sent } = render(req, w.pick, t.token, ip, MAX_BODY_BYTES)
      const where = describeRequest(req, url, init.headers, sent)
      const ids = req.path.filter((s) => s instanceof PoolRef).map((r) => w.pick(r.pool, r.index))
      const start = performance.now()
      const res = await t.app.request(url, init)
      const stream = isEventStream(res)
      const text = stream ? await streamOpening(res) : await res.text()
      const elapsed = performance.now() - start
      const seen = perOperation.get(req.op)!
      seen.set(res.status, (seen.get(res.status) ?? 0) + 1)
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1)
      leaks.record(`${where} -> ${res.status}`, text)
      if (process.env.FUZZ_TRACE && `${req.op}:`.includes(process.env.FUZZ_TRACE))
        console.log('TRACE', where.slice(0, 400), '->', res.status, text.slice(0, 300))
      if (res.status >= 500) {
        const id = res.headers.get('x-request-id') ?? '?'
        const logged = logLines.filter((l) => l.includes(id)).map((l) => l.slice(0, 600))
        expect.fail(`${where} -> ${res.status} ${text.slice(0, 300)}\nlogged: ${logged.join('\n')}`)
      }
      expect(elapsed, `${where}: took ${Math.round(elapsed)} ms`).toBeLessThan(SLOW_MS)
      expect(res.headers.get('x-request-id'), where).toMatch(/^req_/)
      const after = await snapshot(t.deps.db, t.workspaceId)
      if (res.status === 200 && stream) {
        expect(text, `${where}: an event stream opens with its retry delay`).toMatch(/^retry: \d+\n\n/)
      } else if (res.status === 200) {
        let body: unknown
        expect(() => (body = JSON.parse(text)), `${where}: 200 body is not JSON`).not.toThrow()
        w.learn(body)
        if (req.method === 'DELETE') for (const id of ids) w.forget(id)
      } else {
        expect(res.status, `${where}: ${text.slice(0, 300)}`).toBeGreaterThanOrEqual(400)
        expectErrorBody(res.status, text, res.headers.get('x-request-id'), where)
        if (!WRITING_REFUSALS.some((code) => text.includes(`"code":"${code}"`)))
          expect(after, `${where} -> ${res.status} changed the workspace's data`).toBe(before)
      }
      if (after !== before) writes++
      before = after
      if (requests % 250 === 0) expect(await snapshot(foreign.deps.db, foreign.workspaceId)).toBe(foreignBefore)
    }

    const anyRequest = fc.oneof(...operations.map((op) => requestsFor(ctx, op)))
    const replay = process.env.FUZZ_PATH ? { path: process.env.FUZZ_PATH, endOnFailure: true } : {}
    await fc.assert(fc.asyncProperty(anyRequest, send), { seed, numRuns, ...replay })

    expect(await snapshot(foreign.deps.db, foreign.workspaceId), 'the other workspace was written').toBe(foreignBefore)
    for (const line of logLines) leaks.record('log', line)
    const summary = [...statuses.entries()].sort(([a], [b]) => a - b).map(([s, n]) => `${s}:${n}`)
    const seconds = ((Date.now() - started) / 1000).toFixed(1)
    console.log(
      `fuzz: seed=${seed} requests=${requests} operations=${operations.length} statuses={${summary.join(' ')}} ` +
        `writes=${writes} scanned=${leaks.scanned().texts} duration=${seconds}s`,
    )
    if (process.env.FUZZ_REPORT) {
      for (const [op, seen] of perOperation) console.log(op, JSON.stringify(Object.fromEntries(seen)))
      console.log(JSON.stringify(Object.fromEntries(Object.entries(w.pools).map(([k, v]) => [k, v.length]))))
    }
    const idle = [...perOperation].filter(([, seen]) => seen.size === 0).map(([op]) => op)
    expect(idle, 'operations without a run').toEqual([])
    expect(requests).toBeGreaterThanOrEqual(Math.min(numRuns, 5000))
    expect(leaks.leaks()).toEqual([])
  })
})
