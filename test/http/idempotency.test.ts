import { describe, expect, it } from 'vitest'
import { account, fixedClock } from '../support/fixtures'
import { and, eq } from 'drizzle-orm'
import { idempotencyKeys, posts } from '../../src/db/schema'
import { createPost } from '../../src/services/posts/create'
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

  it('takes a key again once its answer has expired (24 h), or once a request died holding it (60 s)', async () => {
    const clock = fixedClock('2026-05-15T12:00:00.000Z')
    const t = await createTestApp({ clock })
    const a = await account(t, 'CHAT_NET')
    const body = { type: 'IMAGE', accountIds: [a.id], mediaIds: [], action: 'draft', caption: 'daily' }
    const first = await t.call('POST', '/v1/posts', { body, headers: { 'idempotency-key': 'k-day' } })
    expect(first.status).toBe(200)
    clock.set('2026-05-16T11:59:00.000Z')
    const replay = await t.call('POST', '/v1/posts', { body, headers: { 'idempotency-key': 'k-day' } })
    expect(replay.headers.get('idempotent-replayed')).toBe('true')
    expect((await replay.json()).id).toBe((await first.json()).id)

    // Past 24 h the key is new again, even with another body: a second post.
    clock.set('2026-05-16T12:00:01.000Z')
    const later = await t.call('POST', '/v1/posts', {
      body: { ...body, caption: 'next day' },
      headers: { 'idempotency-key': 'k-day' },
    })
    expect(later.status).toBe(200)
    expect(later.headers.get('idempotent-replayed')).toBeNull()
    expect((await later.json()).caption).toBe('next day')
    expect(await (await t.call('GET', '/v1/posts')).json()).toHaveLength(2)

    // A pending claim (a request that died mid-way) blocks the key for 60 s only.
    await t.deps.db.insert(idempotencyKeys).values({
      workspaceId: t.workspaceId,
      key: 'k-dead',
      fingerprint: 'another request',
      state: 'pending',
      createdAt: clock.now(),
      expiresAt: new Date(clock.now().getTime() + 60_000),
    })
    expect((await t.call('POST', '/v1/posts', { body, headers: { 'idempotency-key': 'k-dead' } })).status).toBe(422)
    clock.set('2026-05-16T12:01:02.000Z')
    const taken = await t.call('POST', '/v1/posts', { body, headers: { 'idempotency-key': 'k-dead' } })
    expect(taken.status).toBe(200)
    expect(await (await t.call('GET', '/v1/posts')).json()).toHaveLength(3)
  })

  it('replays the first answer to a retry that the checks would now refuse (its account disconnected since)', async () => {
    const t = await createTestApp()
    const a = await account(t, 'CHAT_NET')
    const body = {
      type: 'IMAGE',
      accountIds: [a.id],
      mediaIds: [],
      action: 'schedule',
      scheduledAt: '2099-01-01T10:00:00.000Z',
      caption: 'kept',
    }
    const first = await t.call('POST', '/v1/posts', { body, headers: { 'idempotency-key': 'k-gone' } })
    expect(first.status).toBe(200)
    expect((await t.call('DELETE', `/v1/accounts/${a.id}`)).status).toBe(200)
    // Without the key the same body is refused now...
    expect((await t.call('POST', '/v1/posts', { body })).status).toBe(422)
    // ...with it, the first answer stands.
    const again = await t.call('POST', '/v1/posts', { body, headers: { 'idempotency-key': 'k-gone' } })
    expect(again.status).toBe(200)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(await again.json()).toEqual(await first.json())
  })

  it("stores a create's answer in the post's own transaction, and writes nothing when the key was taken meanwhile", async () => {
    const t = await createTestApp()
    const a = await account(t, 'CHAT_NET')
    const input = {
      type: 'IMAGE' as const,
      accountIds: [a.id],
      mediaIds: [],
      action: 'draft' as const,
      caption: 'once',
    }
    const write = { key: 'k-tx', fingerprint: 'fp-1' }
    const post = await createPost(t.deps, t.workspaceId, input, [], write)
    const keyOf = and(eq(idempotencyKeys.workspaceId, t.workspaceId), eq(idempotencyKeys.key, 'k-tx'))
    const [record] = await t.deps.db.select().from(idempotencyKeys).where(keyOf)
    // Committed with the post: there is no moment where the post exists and its key is free.
    expect(record).toMatchObject({ state: 'done', responseStatus: 200, fingerprint: 'fp-1' })
    expect(record!.responseBody).toEqual(JSON.parse(JSON.stringify(post)))

    // A second write with the key (another request that got past its checks at the same time) stores nothing.
    const count = async () => (await t.deps.db.select().from(posts).where(eq(posts.workspaceId, t.workspaceId))).length
    await expect(createPost(t.deps, t.workspaceId, input, [], write)).rejects.toMatchObject({
      code: 'idempotency_key_in_use',
    })
    expect(await count()).toBe(1)
    expect((await t.deps.db.select().from(idempotencyKeys).where(keyOf))[0]!.responseBody).toEqual(record!.responseBody)

    // An expired record gives the key to the next write, which replaces it.
    await t.deps.db
      .update(idempotencyKeys)
      .set({ expiresAt: new Date('2000-01-01T00:00:00Z') })
      .where(keyOf)
    const next = await createPost(t.deps, t.workspaceId, input, [], { key: 'k-tx', fingerprint: 'fp-2' })
    expect(await count()).toBe(2)
    const [replaced] = await t.deps.db.select().from(idempotencyKeys).where(keyOf)
    expect(replaced).toMatchObject({ fingerprint: 'fp-2', state: 'done' })
    expect((replaced!.responseBody as { id: string }).id).toBe(next.id)
  })
})
