import { describe, expect, it } from 'vitest'
import { createVideoShareAdapter } from '../../src/networks/adapters/video-share'
import type { AdapterOptions } from '../../src/networks/adapters/options'
import { CommentGone, type NetworkComment } from '../../src/networks/inbox-adapter'
import { googleError, startVideoShareFake } from '../fakes/video-share'
import { fakeCommentMaker } from './support/fake-comments'

const NOW = new Date('2026-11-23T10:00:00.000Z')
const ago = (h: number) => new Date(NOW.getTime() - h * 3_600_000)
const adapter = createVideoShareAdapter({
  clients: {},
  origins: { OPENPROTOCOL_NET_VIDEO_URL: 'http://127.0.0.1:9', VIDEOSHARE_NET_OAUTH_URL: 'http://127.0.0.1:9' },
} as AdapterOptions)

async function setup() {
  const fake = await startVideoShareFake()
  const base = {
    accountId: 'acc_1',
    connection: 'DIRECT_LOGIN',
    credentials: { accessToken: 'yt_access_1', channelId: 'UC_channel_1' },
    fetch: globalThis.fetch,
    baseUrl: fake.url,
    now: NOW,
  }
  const videos = (n: number) => {
    for (let i = 0; i < n; i++)
      fake.state.videos.push({
        id: `vid${1000 + i}`,
        snippet: {
          title: `Video ${i}`,
          description: `About ${i}`,
          channelId: 'UC_channel_1',
          publishedAt: ago(i * 24 + 1).toISOString(),
        },
        status: { uploadStatus: 'processed', privacyStatus: 'public' },
        bytes: Buffer.alloc(0),
        polls: 0,
        statistics: { viewCount: String(100 + i), likeCount: '5', commentCount: '2', favoriteCount: '0' },
      })
  }
  const comment = fakeCommentMaker(fake.inbox.comments, (seq) => ({
    id: `Ugz${String(seq).padStart(5, '0')}`,
    authorId: `UC_viewer_${seq}`,
    username: `@viewer${seq}`,
    timestamp: new Date(ago(30).getTime() + seq * 60_000),
  }))
  const post = { platformPostId: 'vid1000', publishedAt: ago(1), permalink: null }
  return { fake, base, videos, comment, post }
}

describe('VIDEOSHARE_NET inbox', () => {
  it('lists the channel uploads with statistics through the uploads playlist, page by page', async () => {
    const { base, videos, fake } = await setup()
    videos(60)
    const first = await adapter.listPosts!({ ...base, cursor: null, since: ago(24 * 90) })
    expect(first.posts).toHaveLength(50)
    expect(first.posts[0]).toMatchObject({
      platformPostId: 'vid1000',
      permalink: 'https://www.youtube.com/watch?v=vid1000',
      text: 'Video 0\n\nAbout 0',
      metrics: { views: 100, likes: 5, comments: 2, shares: null, impressions: null },
    })
    const second = await adapter.listPosts!({ ...base, cursor: first.nextCursor, since: ago(24 * 90) })
    expect(second.posts).toHaveLength(10)
    expect(second.nextCursor).toBeNull()
    const recent = await adapter.listPosts!({ ...base, cursor: null, since: ago(24 * 3) })
    expect(recent.posts).toHaveLength(3)
    expect(recent.nextCursor).toBeNull()
    const list = fake.calls('GET', '/youtube/v3/playlistItems')[0]!
    expect(list.headers.authorization).toBe('Bearer yt_access_1')
    expect(list.query.get('playlistId')).toBe('UU_channel_1')
  })

  it('lists comment threads with every reply, fetching replies beyond the embedded five', async () => {
    const { base, videos, comment, post, fake } = await setup()
    videos(1)
    const top = comment(post.platformPostId, 'Great tutorial')
    for (let i = 0; i < 7; i++) comment(post.platformPostId, `reply ${i}`, { parentId: top.id })
    for (let i = 0; i < 105; i++) comment(post.platformPostId, `c${i}`)
    const all: NetworkComment[] = []
    let cursor: string | null = null
    let pages = 0
    do {
      const page = await adapter.listComments!({ ...base, post, cursor, since: null })
      all.push(...page.comments)
      cursor = page.nextCursor
      pages++
    } while (cursor)
    expect(pages).toBe(2)
    expect(all).toHaveLength(113)
    expect(all.filter((c) => c.parentExternalId === top.id).map((c) => c.text)).toEqual(
      Array.from({ length: 7 }, (_, i) => `reply ${i}`),
    )
    expect(fake.calls('GET', '/youtube/v3/comments')[0]!.query.get('parentId')).toBe(top.id)
    expect(all.find((c) => c.externalId === top.id)).toMatchObject({
      postExternalId: 'vid1000',
      author: { externalId: top.authorId, name: '@viewer1', handle: '@viewer1' },
      permalink: `https://www.youtube.com/watch?v=vid1000&lc=${top.id}`,
      fromAccount: false,
    })
  })

  it('replies with snippet.parentId and textOriginal, hides by holding for review, deletes its own reply', async () => {
    const { base, videos, comment, post, fake } = await setup()
    videos(1)
    const top = comment(post.platformPostId, 'What camera?')
    const ref = { externalId: top.id, postExternalId: post.platformPostId, parentExternalId: null }
    const sent = await adapter.replyToComment!({ ...base, comment: ref, text: 'A 2019 compact', idempotencyKey: 'k' })
    const call = fake.calls('POST', '/youtube/v3/comments')[0]!
    expect(call.query.get('part')).toBe('snippet')
    expect(call.json()).toEqual({ snippet: { parentId: top.id, textOriginal: 'A 2019 compact' } })
    expect(sent.permalink).toBe(`https://www.youtube.com/watch?v=vid1000&lc=${sent.externalId}`)
    const listed = await adapter.listComments!({ ...base, post, cursor: null, since: null })
    expect(listed.comments.find((c) => c.externalId === sent.externalId)).toMatchObject({
      fromAccount: true,
      parentExternalId: top.id,
    })

    await adapter.hideComment!({ ...base, comment: ref, hidden: true })
    expect(fake.calls('POST', '/youtube/v3/comments/setModerationStatus')[0]!.query.get('moderationStatus')).toBe(
      'heldForReview',
    )
    expect((await adapter.listComments!({ ...base, post, cursor: null, since: null })).comments).toHaveLength(0)
    await adapter.hideComment!({ ...base, comment: ref, hidden: false })
    expect((await adapter.listComments!({ ...base, post, cursor: null, since: null })).comments).toHaveLength(2)

    const mine = { externalId: sent.externalId, postExternalId: post.platformPostId, parentExternalId: top.id }
    await adapter.deleteComment!({ ...base, comment: mine })
    await expect(adapter.deleteComment!({ ...base, comment: mine })).rejects.toBeInstanceOf(CommentGone)
    await expect(adapter.deleteComment!({ ...base, comment: ref })).rejects.toMatchObject({ kind: 'rejected' })
    expect(adapter.likeComment).toBeUndefined()
    expect(adapter.listMentions).toBeUndefined()
  })

  it('a deleted video or comment is gone', async () => {
    const { base, videos, post } = await setup()
    videos(1)
    await expect(
      adapter.listComments!({ ...base, post: { ...post, platformPostId: 'vidGone' }, cursor: null, since: null }),
    ).rejects.toBeInstanceOf(CommentGone)
    await expect(
      adapter.replyToComment!({
        ...base,
        comment: { externalId: 'UgzNope', postExternalId: 'vid1000', parentExternalId: null },
        text: 'hi',
        idempotencyKey: 'k',
      }),
    ).rejects.toBeInstanceOf(CommentGone)
  })

  it('a used-up quota waits until midnight Pacific, a 429 by its Retry-After, a dead token reconnects', async () => {
    const { base, videos, post, fake } = await setup()
    videos(1)
    fake.failNext(
      googleError(403, 'quotaExceeded', 'The request cannot be completed because you have exceeded your quota.'),
    )
    const quota = await adapter.listComments!({ ...base, post, cursor: null, since: null }).catch((e) => e)
    // 10:00 UTC is 02:00 in Los Angeles: 22 hours to midnight, plus a minute.
    expect(quota).toMatchObject({ kind: 'rate_limited', retryAfterSec: 22 * 3600 + 60 })
    fake.fault('GET', '/youtube/v3/commentThreads', { kind: 'rate-limit', retryAfterSec: 40 })
    await expect(adapter.listComments!({ ...base, post, cursor: null, since: null })).rejects.toMatchObject({
      kind: 'rate_limited',
      retryAfterSec: 40,
    })
    fake.expireToken()
    await expect(adapter.listPosts!({ ...base, cursor: null, since: ago(5) })).rejects.toMatchObject({
      kind: 'auth_expired',
    })
  })
})
