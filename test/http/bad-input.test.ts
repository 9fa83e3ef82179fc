import { describe, expect, it } from 'vitest'
import { account } from '../support/fixtures'
import { createTestApp, type TestResponse } from '../support/test-app'

/** Input the database cannot take is refused at the boundary in the error body, never a 500. */
describe('bad input at the boundary', () => {
  const draft = (accountId: string, extra: Record<string, unknown>) => ({
    type: 'IMAGE',
    accountIds: [accountId],
    mediaIds: [],
    action: 'draft',
    caption: 'ok',
    ...extra,
  })

  const expectError = async (res: TestResponse, status: number, code: string, path?: string) => {
    expect(res.status).toBe(status)
    const body = await res.json()
    expect(body.error.code).toBe(code)
    if (path) expect(body.error.details?.[0]?.path).toBe(path)
  }

  it('answers 404 for a NUL character in a path id', async () => {
    const t = await createTestApp()
    await expectError(await t.call('GET', '/v1/accounts/%00/boards'), 404, 'not_found')
    await expectError(await t.call('GET', '/v1/posts/post_%00x'), 404, 'not_found')
    await expectError(await t.call('PATCH', '/v1/posts/%00', { body: { caption: 'x' } }), 404, 'not_found')
  })

  it('answers 400 naming the query parameter that holds a NUL character', async () => {
    const t = await createTestApp()
    await expectError(await t.call('GET', '/v1/posts?q=%00'), 400, 'invalid_request', 'query.q')
    await expectError(await t.call('GET', '/v1/posts?q=a%00b&limit=5'), 400, 'invalid_request', 'query.q')
  })

  it('answers 400 naming the body field with a NUL or an unpaired surrogate, and writes nothing', async () => {
    const t = await createTestApp()
    const a = await account(t, 'CHAT_NET')
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ caption: 'a\u0000b' }, 'caption'],
      [{ caption: '\u0000\ud800' }, 'caption'],
      [{ caption: 'lone \udc00 low' }, 'caption'],
      [{ threadParts: ['fine', 'not\u0000fine'] }, 'threadParts.1'],
      [{ captionOverrides: { CHAT_NET: '\ud83d' } }, 'captionOverrides.CHAT_NET'],
    ]
    for (const [extra, path] of cases) {
      await expectError(await t.call('POST', '/v1/posts', { body: draft(a.id, extra) }), 400, 'invalid_request', path)
    }
    // A surrogate pair (an emoji) is ordinary text.
    expect((await t.call('POST', '/v1/posts', { body: draft(a.id, { caption: 'ok \ud83d\ude00' }) })).status).toBe(200)
    expect(await (await t.call('GET', '/v1/posts')).json()).toHaveLength(1)
  })

  it('answers a malformed JSON content type with 415 in the error body, not 500', async () => {
    const t = await createTestApp()
    const a = await account(t, 'CHAT_NET')
    for (const type of ['application/json;', 'application/json ; charset=utf-8', 'application/json;;']) {
      const res = await t.call('POST', '/v1/posts', {
        body: JSON.stringify(draft(a.id, {})),
        headers: { 'content-type': type },
      })
      await expectError(res, 415, 'unsupported_media_type')
    }
    const ok = await t.call('POST', '/v1/posts', {
      body: JSON.stringify(draft(a.id, {})),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    })
    expect(ok.status).toBe(200)
  })

  it('answers 400 for a time outside the years a schedule can mean (year 0), not 500', async () => {
    const t = await createTestApp()
    const a = await account(t, 'CHAT_NET')
    for (const scheduledAt of ['0000-01-01T00:00:00Z', '1969-12-31T23:59:59Z']) {
      const res = await t.call('POST', '/v1/posts', { body: draft(a.id, { scheduledAt }) })
      await expectError(res, 400, 'invalid_request', 'scheduledAt')
    }
    const created = await (await t.call('POST', '/v1/posts', { body: draft(a.id, {}) })).json()
    const res = await t.call('POST', `/v1/posts/${created.id}/schedule`, {
      body: { scheduledAt: '0000-01-01T00:00:00Z' },
    })
    await expectError(res, 400, 'invalid_request', 'scheduledAt')
    expect(await (await t.call('GET', '/v1/posts')).json()).toHaveLength(1)
  })

  it('answers a body nested far deeper than any schema (within the size cap) without a 500', async () => {
    const t = await createTestApp()
    const a = await account(t, 'CHAT_NET')
    const depth = 200_000
    const deep = `${'['.repeat(depth)}${']'.repeat(depth)}`
    const created = await t.call('POST', '/v1/posts', {
      body: `{"extra":${deep},${JSON.stringify(draft(a.id, {})).slice(1)}`,
    })
    expect(created.status).toBe(200)
    const post = await created.json()
    const retry = await t.call('POST', `/v1/posts/${post.id}/retry`, { body: `{"x":${deep}}` })
    await expectError(retry, 409, 'nothing_to_retry')
    // The guard still names the first unstorable place, a key included.
    const nul = await t.call('POST', '/v1/posts', { body: { ...draft(a.id, {}), caption: 'a\u0000', x: [[[['y']]]] } })
    await expectError(nul, 400, 'invalid_request', 'caption')
    const key = await t.call('POST', '/v1/posts', {
      body: `{"x":{"a\\u0000b":1},${JSON.stringify(draft(a.id, {})).slice(1)}`,
    })
    await expectError(key, 400, 'invalid_request', 'x.a?b')
    expect(await (await t.call('GET', '/v1/posts')).json()).toHaveLength(1)
  })
})
