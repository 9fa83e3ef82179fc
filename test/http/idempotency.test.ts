import { describe, expect, it } from 'vitest'
import { account } from '../support/fixtures'
import { createTestApp } from '../support/test-app'

describe('Idempotency-Key', () => {
  it('replays the first answer for the same key and body, creating one post', async () => {
    const t = await createTestApp()
    const a = await account(t, 'CHAT_NET')
    const body = { type: 'IMAGE', accountIds: [a.id], mediaIds: [], action: 'draft', caption: 'once' }
    const first = await t.call('POST', '/v1/posts', { body, headers: { 'idempotency-key': 'k-1' } })
    const again = await t.call('POST', '/v1/posts', { body, headers: { 'idempotency-key': 'k-1' } })
    expect(first.status).toBe(200)
    expect(again.status).toBe(200)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(await again.json()).toEqual(await first.json())
    expect(await (await t.call('GET', '/v1/posts')).json()).toHaveLength(1)
  })

  it('refuses the same key with a different body with 422', async () => {
    const t = await createTestApp()
    const a = await account(t, 'CHAT_NET')
    const body = { type: 'IMAGE', accountIds: [a.id], mediaIds: [], action: 'draft', caption: 'one' }
    await t.call('POST', '/v1/posts', { body, headers: { 'idempotency-key': 'k-2' } })
    const res = await t.call('POST', '/v1/posts', {
      body: { ...body, caption: 'two' },
      headers: { 'idempotency-key': 'k-2' },
    })
    expect(res.status).toBe(422)
    expect((await res.json()).error.code).toBe('idempotency_key_reused')
  })

  it('creates one post for two concurrent requests with one key', async () => {
    const t = await createTestApp()
    const a = await account(t, 'CHAT_NET')
    const body = { type: 'IMAGE', accountIds: [a.id], mediaIds: [], action: 'draft', caption: 'race' }
    const results = await Promise.all(
      Array.from({ length: 4 }, () => t.call('POST', '/v1/posts', { body, headers: { 'idempotency-key': 'k-race' } })),
    )
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200])
    const ids = new Set(await Promise.all(results.map(async (r) => (await r.json()).id)))
    expect(ids.size).toBe(1)
    expect(await (await t.call('GET', '/v1/posts')).json()).toHaveLength(1)
  })

  it('gives the key back after a failed request, so the corrected request can use it', async () => {
    const t = await createTestApp()
    const a = await account(t, 'CHAT_NET')
    const bad = await t.call('POST', '/v1/posts', {
      body: { type: 'IMAGE', accountIds: ['acc_missing'], mediaIds: [], action: 'draft' },
      headers: { 'idempotency-key': 'k-3' },
    })
    expect(bad.status).toBe(422)
    const good = await t.call('POST', '/v1/posts', {
      body: { type: 'IMAGE', accountIds: [a.id], mediaIds: [], action: 'draft' },
      headers: { 'idempotency-key': 'k-3' },
    })
    expect(good.status).toBe(200)
  })

  it('keeps keys per workspace and covers the bulk route', async () => {
    const t = await createTestApp()
    const other = await createTestApp()
    const a = await account(t, 'CHAT_NET')
    const b = await account(other, 'CHAT_NET')
    const one = await t.call('POST', '/v1/posts/bulk', {
      body: { csv: `accountIds,caption\n${a.id},hi` },
      headers: { 'idempotency-key': 'shared' },
    })
    const two = await other.call('POST', '/v1/posts/bulk', {
      body: { csv: `accountIds,caption\n${b.id},hi` },
      headers: { 'idempotency-key': 'shared' },
    })
    expect([one.status, two.status]).toEqual([200, 200])
    const replay = await t.call('POST', '/v1/posts/bulk', {
      body: { csv: `accountIds,caption\n${a.id},hi` },
      headers: { 'idempotency-key': 'shared' },
    })
    expect(await replay.json()).toEqual(await one.json())
    expect(await (await t.call('GET', '/v1/posts')).json()).toHaveLength(1)
  })
})
