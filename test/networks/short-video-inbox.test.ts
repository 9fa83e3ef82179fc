import { describe, expect, it } from 'vitest'
import type { AccountCallInput } from '../../src/networks/adapter'
import { createShortVideoAdapter } from '../../src/networks/adapters/short-video'
import { NetworkFailure } from '../../src/networks/http'
import { startShortVideoFake } from '../fakes/short-video'

const adapter = createShortVideoAdapter({ clients: {}, origins: {} as never })
const T0 = 1_795_000_000

async function setup() {
  const fake = await startShortVideoFake()
  for (let i = 1; i <= 25; i++)
    fake.state.videos.push({
      id: `73000000000000000${String(i).padStart(2, '0')}`,
      create_time: T0 + i * 60,
      title: '',
      video_description: `Dance ${i}`,
      share_url: `https://www.tiktok.com/@dancer/video/${i}`,
      cover_image_url: `https://p16.example/cover${i}.jpg`,
      like_count: i,
      comment_count: 2,
      share_count: 1,
      view_count: 100 * i,
    })
  const base: AccountCallInput = {
    accountId: 'acc_1',
    connection: 'DIRECT_LOGIN',
    credentials: { accessToken: fake.state.accessToken, openId: 'open_123' },
    fetch,
    baseUrl: fake.url,
    now: new Date((T0 + 3600) * 1000),
  }
  return { fake, base }
}

describe('SHORTVIDEO_NET imported posts (Display API list videos)', () => {
  it('lists videos newest first with their counts, 20 a page, through the cursor, stopping at since', async () => {
    const { fake, base } = await setup()
    const since = new Date((T0 - 60) * 1000)
    const first = await adapter.listPosts!({ ...base, cursor: null, since })
    expect(first.posts).toHaveLength(20)
    expect(first.posts[0]).toEqual({
      platformPostId: '7300000000000000025',
      permalink: 'https://www.tiktok.com/@dancer/video/25',
      text: 'Dance 25',
      publishedAt: new Date((T0 + 25 * 60) * 1000),
      mediaUrls: ['https://p16.example/cover25.jpg'],
      metrics: {
        likes: 25,
        comments: 2,
        shares: 1,
        views: 2500,
        saves: null,
        clicks: null,
        impressions: null,
        reach: null,
      },
    })
    expect(first.nextCursor).toBe(String((T0 + 6 * 60) * 1000))
    const call = fake.calls('POST', '/v2/video/list/')[0]!
    expect(call.query.get('fields')).toContain('like_count')
    expect(call.json()).toEqual({ max_count: 20 })
    expect(call.headers.authorization).toBe(`Bearer ${fake.state.accessToken}`)
    const second = await adapter.listPosts!({ ...base, cursor: first.nextCursor, since })
    expect(second.posts.map((p) => p.text)).toEqual(['Dance 5', 'Dance 4', 'Dance 3', 'Dance 2', 'Dance 1'])
    expect(second.nextCursor).toBeNull()
    expect(fake.calls('POST', '/v2/video/list/')[1]!.json()).toEqual({ max_count: 20, cursor: (T0 + 6 * 60) * 1000 })
    const recent = await adapter.listPosts!({ ...base, cursor: null, since: new Date((T0 + 24 * 60) * 1000) })
    expect(recent.posts.map((p) => p.text)).toEqual(['Dance 25', 'Dance 24'])
    expect(recent.nextCursor).toBeNull()
  })

  it('a rate limit waits; a missing video.list scope says so; the adapter reads no comments', async () => {
    const { fake, base } = await setup()
    fake.failNext(
      {
        status: 429,
        headers: { 'retry-after': '45' },
        json: { data: {}, error: { code: 'rate_limit_exceeded', message: 'slow down', log_id: 'l' } },
      },
      '/v2/video/list/',
    )
    const err = await adapter.listPosts!({ ...base, cursor: null, since: new Date(0) }).catch((e) => e)
    expect(err).toBeInstanceOf(NetworkFailure)
    expect(err).toMatchObject({ kind: 'rate_limited', retryAfterSec: 45 })
    fake.state.scopes.delete('video.list')
    await expect(adapter.listPosts!({ ...base, cursor: null, since: new Date(0) })).rejects.toMatchObject({
      kind: 'rejected',
      message: expect.stringContaining('video.list scope'),
    })
    expect(adapter.listComments).toBeUndefined()
  })
})
