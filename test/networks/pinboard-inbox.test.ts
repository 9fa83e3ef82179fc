import { describe, expect, it } from 'vitest'
import type { AccountCallInput } from '../../src/networks/adapter'
import { createPinboardAdapter } from '../../src/networks/adapters/pinboard'
import { NetworkFailure } from '../../src/networks/http'
import { startPinboardFake } from '../fakes/pinboard'

const adapter = createPinboardAdapter({ clients: {}, origins: {} as never })
const T0 = Date.parse('2026-11-01T00:00:00Z')

async function setup() {
  const fake = await startPinboardFake()
  for (let i = 1; i <= 105; i++) {
    const id = String(1_000_000 + i)
    fake.state.pins.set(id, {
      id,
      board_id: fake.state.boards[1]!.id,
      title: `Pin ${i}`,
      description: 'Recipe',
      link: null,
      alt_text: null,
      created_at: new Date(T0 + i * 60_000).toISOString().replace(/\.\d{3}Z$/, ''),
      media_source: {},
      images: [],
    })
    fake.state.analytics.set(id, { IMPRESSION: 10 * i, SAVE: i })
  }
  const base: AccountCallInput = {
    accountId: 'acc_1',
    connection: 'DIRECT_LOGIN',
    credentials: { accessToken: fake.state.accessToken },
    fetch,
    baseUrl: fake.url,
    now: new Date(T0 + 86_400_000),
  }
  return { fake, base }
}

describe('PINBOARD_NET imported posts (list pins)', () => {
  it('lists pins newest first with lifetime metrics, paged with the bookmark, stopping at since', async () => {
    const { fake, base } = await setup()
    const since = new Date(T0)
    const first = await adapter.listPosts!({ ...base, cursor: null, since })
    expect(first.posts).toHaveLength(100)
    expect(first.posts[0]).toMatchObject({
      platformPostId: '1000105',
      permalink: 'https://www.pinterest.com/pin/1000105/',
      text: 'Pin 105\nRecipe',
      publishedAt: new Date(T0 + 105 * 60_000),
      metrics: { impressions: 1050, saves: 105, clicks: 4, likes: 2, comments: 1, views: null, reach: null },
    })
    expect(first.nextCursor).not.toBeNull()
    const call = fake.calls('GET', '/v5/pins')[0]!
    expect(Object.fromEntries(call.query)).toEqual({ page_size: '100', pin_metrics: 'true' })
    const second = await adapter.listPosts!({ ...base, cursor: first.nextCursor, since })
    expect(second.posts.map((p) => p.platformPostId)).toEqual(['1000005', '1000004', '1000003', '1000002', '1000001'])
    expect(second.nextCursor).toBeNull()
    const recent = await adapter.listPosts!({ ...base, cursor: null, since: new Date(T0 + 104 * 60_000) })
    expect(recent.posts).toHaveLength(2)
    expect(recent.nextCursor).toBeNull()
  })

  it('a 429 waits as the network says; comments are not offered', async () => {
    const { fake, base } = await setup()
    fake.failNextError(429, 8, 'Rate limit exceeded.', { 'retry-after': '15' }, /^GET \/v5\/pins$/)
    const err = await adapter.listPosts!({ ...base, cursor: null, since: new Date(0) }).catch((e) => e)
    expect(err).toBeInstanceOf(NetworkFailure)
    expect(err).toMatchObject({ kind: 'rate_limited', retryAfterSec: 15 })
    fake.expireAccessToken()
    await expect(adapter.listPosts!({ ...base, cursor: null, since: new Date(0) })).rejects.toMatchObject({
      kind: 'auth_expired',
    })
    expect(adapter.listComments).toBeUndefined()
  })
})
