import { beforeAll, describe, expect, it } from 'vitest'
import { ERROR_CODES } from '../../src/domain/errors'
import { TARGET_ERROR_CODES } from '../../src/domain/vocabulary'
import { account } from '../support/fixtures'
import { createTestApp, type TestApp } from '../support/test-app'

type Operation = { path: string; method: string; op: any }

let t: TestApp
let doc: any
let operations: Operation[]

beforeAll(async () => {
  t = await createTestApp()
  doc = await (await t.call('GET', '/v1/openapi.json', { token: null })).json()
  operations = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ path, method, op })),
  )
})

const name = (o: Operation) => `${o.method.toUpperCase()} ${o.path}`
const deref = (node: any) => (node?.$ref ? doc.components.headers[node.$ref.split('/').pop()] : node)

describe('OpenAPI description, strict', () => {
  it('gives every operation a unique camelCase operationId, and keeps the published ones', () => {
    const missing = operations.filter((o) => !/^[a-z][a-zA-Z0-9]*$/.test(o.op.operationId ?? '')).map(name)
    expect(missing, 'operations without a camelCase operationId').toEqual([])
    const ids = operations.map((o) => o.op.operationId)
    expect(
      ids.filter((id, i) => ids.indexOf(id) !== i),
      'duplicate operationIds',
    ).toEqual([])
    // Renaming one breaks every client generated from the document.
    const byRoute = Object.fromEntries(operations.map((o) => [name(o), o.op.operationId]))
    expect(byRoute).toMatchObject({
      'GET /v1/me': 'getMe',
      'GET /v1/accounts': 'listAccounts',
      'GET /v1/accounts/{id}/boards': 'listAccountBoards',
      'GET /v1/platforms': 'listPlatforms',
      'GET /v1/posts': 'listPosts',
      'POST /v1/posts': 'createPost',
      'POST /v1/posts/bulk': 'createPostsInBulk',
      'GET /v1/posts/{id}': 'getPost',
      'PATCH /v1/posts/{id}': 'updatePost',
      'DELETE /v1/posts/{id}': 'deletePost',
      'POST /v1/posts/{id}/schedule': 'schedulePost',
      'POST /v1/posts/{id}/publish': 'publishPost',
      'POST /v1/posts/{id}/retry': 'retryPost',
      'POST /v1/media/uploads': 'createMediaUpload',
      'POST /v1/media': 'registerMediaAsset',
      'GET /v1/media': 'listMediaAssets',
      'GET /v1/media/{id}': 'getMediaAsset',
      'POST /v1/media/{id}/variants': 'createMediaVariants',
      'GET /v1/queue-slots': 'getQueueSlots',
      'PUT /v1/queue-slots': 'replaceQueueSlots',
      'GET /v1/analytics': 'getAnalytics',
      'GET /v1/best-times': 'getBestTimes',
    })
  })

  it('declares the rate-limit and request-id headers on every response, Retry-After on 429', () => {
    for (const o of operations) {
      for (const [status, response] of Object.entries(o.op.responses as Record<string, any>)) {
        const headers = Object.keys(response.headers ?? {})
        const expected = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'X-Request-Id']
        if (status === '429') expected.push('Retry-After')
        expect(headers, `${name(o)} ${status}`).toEqual(expect.arrayContaining(expected))
        for (const h of headers) expect(deref(response.headers[h])?.schema, `${name(o)} ${status} ${h}`).toBeDefined()
      }
    }
  })

  it('declares Idempotent-Replayed on the success (200, or 202 where accepted for later) of exactly the operations that take an Idempotency-Key', () => {
    const takesKey = (o: Operation) =>
      (o.op.parameters ?? []).some((p: any) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key')
    const success = (o: Operation) => o.op.responses['200'] ?? o.op.responses['202']
    const replays = (o: Operation) => 'Idempotent-Replayed' in (success(o).headers ?? {})
    expect(operations.filter(takesKey).map(name)).toContain('POST /v1/posts')
    for (const o of operations) expect(replays(o), name(o)).toBe(takesKey(o))
  })

  it('sends the headers its description declares on a 200 and on a replay', async () => {
    const me = await t.call('GET', '/v1/me')
    expect(me.status).toBe(200)
    for (const h of Object.keys(doc.paths['/v1/me'].get.responses['200'].headers))
      expect(me.headers.get(h), h).not.toBeNull()
    const a = await account(t, 'CHAT_NET')
    const body = { type: 'IMAGE', accountIds: [a.id], mediaIds: [], action: 'draft', caption: 'replay me' }
    const headers = { 'Idempotency-Key': 'openapi-strict-replay' }
    const first = await t.call('POST', '/v1/posts', { body, headers })
    const again = await t.call('POST', '/v1/posts', { body, headers })
    expect([first.status, again.status]).toEqual([200, 200])
    for (const h of Object.keys(doc.paths['/v1/posts'].post.responses['200'].headers))
      expect(again.headers.get(h), h).not.toBeNull()
    expect(first.headers.get('Idempotent-Replayed')).toBeNull()
    expect(again.headers.get('Idempotent-Replayed')).toBe('true')
  })

  it('documents 413 and 415 only on operations that take a body, and on all of them', () => {
    for (const o of operations) {
      const hasBody = o.op.requestBody !== undefined
      expect('413' in o.op.responses, `${name(o)} 413`).toBe(hasBody)
      expect('415' in o.op.responses, `${name(o)} 415`).toBe(hasBody)
    }
  })

  it('marks every timestamp property as format date-time', () => {
    const offenders: string[] = []
    let seen = 0
    const walk = (node: unknown, at: string): void => {
      if (Array.isArray(node)) {
        node.forEach((n, i) => walk(n, `${at}/${i}`))
        return
      }
      if (!node || typeof node !== 'object') return
      const props = (node as any).properties
      if (props && typeof props === 'object') {
        for (const [key, schema] of Object.entries<any>(props)) {
          if (!/At$|^nextFreeSlot$/.test(key)) continue
          seen++
          const formats = [schema, ...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].map((s: any) => s?.format)
          if (!schema.$ref && !formats.includes('date-time')) offenders.push(`${at}.${key}`)
        }
      }
      for (const [k, v] of Object.entries(node)) walk(v, `${at}/${k}`)
    }
    walk(doc, '#')
    expect(seen).toBeGreaterThan(10)
    expect(offenders).toEqual([])
  })

  it("lists the codes of the API's errors and of a target's error as enums", () => {
    expect(doc.components.schemas.Error.properties.error.properties.code.enum).toEqual([...ERROR_CODES])
    const targetCode = doc.components.schemas.Target.properties.error
    const objectSchema = [targetCode, ...(targetCode.anyOf ?? [])].find((s: any) => s?.properties?.code)
    expect(objectSchema.properties.code.enum).toEqual([...TARGET_ERROR_CODES])
    expect([...TARGET_ERROR_CODES].sort()).toEqual([
      'account_disconnected',
      'auth_expired',
      'rate_limited',
      'rejected',
      'transient',
      'unconfirmed',
    ])
  })
})

describe('/docs', () => {
  it('is served entirely from our own origin, under a policy that forbids any other', async () => {
    const res = await t.call('GET', '/docs', { token: null })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/html/)
    const csp = res.headers.get('content-security-policy') ?? ''
    expect(csp).toContain("default-src 'none'")
    expect(csp).toContain("script-src 'self'")
    expect(csp).not.toMatch(/https?:|\*/)
    const html = await res.text()
    expect(html).toContain('/v1/openapi.json')
    const srcs = [...html.matchAll(/<(?:script|link)\b[^>]*\b(?:src|href)="([^"]+)"/g)].map((m) => m[1]!)
    const wanted: Record<string, RegExp> = { js: /^text\/javascript/, css: /^text\/css/ }
    const assets = srcs.filter((s) => !s.startsWith('data:'))
    expect(assets.length).toBeGreaterThanOrEqual(3)
    for (const src of assets) {
      expect(src, 'same-origin path').toMatch(/^\/[^/]/)
      const asset = await t.call('GET', src, { token: null })
      expect(asset.status, src).toBe(200)
      expect(asset.headers.get('content-type'), src).toMatch(wanted[src.split('.').pop()!]!)
      expect((await asset.text()).length, src).toBeGreaterThan(100)
    }
  })
})
