import { describe, expect, it } from 'vitest'
import { createSocialGraphAdapter } from '../../src/networks/adapters/social-graph'
import type { AdapterOptions } from '../../src/networks/adapters/options'
import { CommentGone, type NetworkComment } from '../../src/networks/inbox-adapter'
import { graphThrottled } from '../fakes/graph-inbox'
import { startSocialGraphFake } from '../fakes/social-graph'
import { fakeCommentMaker } from './support/fake-comments'

const NOW = new Date('2026-11-21T10:00:00.000Z')
const ago = (h: number) => new Date(NOW.getTime() - h * 3_600_000)
const fbTime = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, '+0000')
const adapter = createSocialGraphAdapter({} as AdapterOptions)

async function setup() {
  const fake = await startSocialGraphFake()
  fake.state.clock = () => NOW
  const base = {
    accountId: 'acc_1',
    connection: 'DIRECT_LOGIN',
    credentials: { accessToken: 'EAAPageToken', pageId: '1010' },
    fetch: globalThis.fetch,
    baseUrl: fake.url,
    now: NOW,
  }
  const posts = (n: number) => {
    for (let i = 0; i < n; i++) {
      const id = `1010_${5000 + i}`
      fake.state.posts.set(id, {
        id,
        message: `post ${i}`,
        link: null,
        attached: [],
        kind: 'status',
        createdTime: fbTime(ago(i + 1)),
      })
      fake.state.counts.set(id, { reactions: 3, comments: 0, shares: i === 0 ? 2 : 0, views: null })
    }
  }
  const comment = fakeCommentMaker(fake.inbox.comments, (seq, postId) => ({
    id: `${postId.split('_')[1]}_${7000 + seq}`,
    authorId: `55${seq}`,
    username: `Fan ${seq}`,
    timestamp: new Date(ago(10).getTime() + seq * 60_000),
  }))
  const post = { platformPostId: '1010_5000', publishedAt: ago(1), permalink: null }
  return { fake, base, posts, comment, post }
}

describe('SOCIALGRAPH_NET inbox', () => {
  it('lists the Page posts since a date with counts, page by page', async () => {
    const { base, posts, fake } = await setup()
    posts(70)
    const first = await adapter.listPosts!({ ...base, cursor: null, since: ago(24 * 30) })
    expect(first.posts).toHaveLength(50)
    expect(first.posts[0]).toMatchObject({
      platformPostId: '1010_5000',
      text: 'post 0',
      permalink: 'https://www.facebook.com/1010_5000',
      metrics: { likes: 3, comments: 0, shares: 2, saves: null, reach: null },
    })
    const second = await adapter.listPosts!({ ...base, cursor: first.nextCursor, since: ago(24 * 30) })
    expect(second.posts).toHaveLength(20)
    expect(second.nextCursor).toBeNull()
    const call = fake.calls('GET', /published_posts$/)[0]!
    expect(call.headers.authorization).toBe('Bearer EAAPageToken')
    expect(call.query.get('since')).toBe(String(Math.floor(ago(24 * 30).getTime() / 1000)))
    const recent = await adapter.listPosts!({ ...base, cursor: null, since: ago(3.5) })
    expect(recent.posts.map((p) => p.text)).toEqual(['post 0', 'post 1', 'post 2'])
  })

  it('lists comments and replies flattened with their parent, newest first, stopping at known ones', async () => {
    const { base, posts, comment, post, fake } = await setup()
    posts(1)
    const top = comment(post.platformPostId, 'Gluten free?')
    comment(post.platformPostId, 'Me too', { parentId: top.id })
    for (let i = 0; i < 55; i++) comment(post.platformPostId, `c${i}`)
    const all: NetworkComment[] = []
    let cursor: string | null = null
    do {
      const page = await adapter.listComments!({ ...base, post, cursor, since: null })
      all.push(...page.comments)
      cursor = page.nextCursor
    } while (cursor)
    expect(all).toHaveLength(57)
    expect(all[0]!.text).toBe('c54')
    expect(all.find((c) => c.text === 'Me too')).toMatchObject({
      parentExternalId: top.id,
      postExternalId: post.platformPostId,
    })
    expect(all.find((c) => c.externalId === top.id)).toMatchObject({
      author: { externalId: top.authorId, name: top.username, avatarUrl: expect.stringContaining(top.authorId) },
      hidden: false,
      fromAccount: false,
    })
    expect(fake.calls('GET', /_5000\/comments$/)[0]!.query.get('filter')).toBe('stream')
    // Incremental: the first page reaches a comment already known, so no second page.
    const since = all.find((c) => c.text === 'c10')!.createdAt
    const again = await adapter.listComments!({ ...base, post, cursor: null, since })
    expect(again.nextCursor).toBeNull()
  })

  it('replies, hides, likes and deletes as the Page with the bodies the reference names', async () => {
    const { base, posts, comment, post, fake } = await setup()
    posts(1)
    const c = comment(post.platformPostId, 'When do you open?')
    const ref = { externalId: c.id, postExternalId: post.platformPostId, parentExternalId: null }
    const sent = await adapter.replyToComment!({ ...base, comment: ref, text: 'At 8!', idempotencyKey: 'k' })
    const call = fake.calls('POST', new RegExp(`/${c.id}/comments$`))[0]!
    expect(call.json()).toEqual({ message: 'At 8!' })
    expect(call.headers.authorization).toBe('Bearer EAAPageToken')
    const listed = await adapter.listComments!({ ...base, post, cursor: null, since: null })
    expect(listed.comments.find((x) => x.externalId === sent.externalId)).toMatchObject({
      fromAccount: true,
      parentExternalId: c.id,
    })
    await adapter.hideComment!({ ...base, comment: ref, hidden: true })
    expect(c.hidden).toBe(true)
    await adapter.hideComment!({ ...base, comment: ref, hidden: false })
    expect(c.hidden).toBe(false)
    await adapter.likeComment!({ ...base, comment: ref })
    expect(c.liked).toBe(true)
    await adapter.deleteComment!({ ...base, comment: ref })
    expect(c.deleted).toBe(true)
    await expect(adapter.deleteComment!({ ...base, comment: ref })).rejects.toBeInstanceOf(CommentGone)
    await expect(adapter.likeComment!({ ...base, comment: ref })).rejects.toBeInstanceOf(CommentGone)
    await expect(
      adapter.listComments!({ ...base, post: { ...post, platformPostId: '1010_9999' }, cursor: null, since: null }),
    ).rejects.toBeInstanceOf(CommentGone)
  })

  it('lists posts that tag the Page as mentions', async () => {
    const { base, fake } = await setup()
    fake.inbox.tagged.push({
      id: '777_1',
      message: 'Great croissants at Corner Bakery',
      fromId: '777',
      fromName: 'Ana',
      createdTime: ago(2),
    })
    const page = await adapter.listMentions!({ ...base, cursor: null, since: null })
    expect(page.comments).toEqual([
      expect.objectContaining({
        externalId: '777_1',
        postExternalId: '777_1',
        text: 'Great croissants at Corner Bakery',
        author: expect.objectContaining({ name: 'Ana' }),
      }),
    ])
  })

  it('a throttled Page waits as the usage header says, a 429 by Retry-After, a dead token reconnects', async () => {
    const { base, posts, post, fake } = await setup()
    posts(1)
    const throttled = graphThrottled(3, 32)
    fake.fault('GET', /\/comments$/, { kind: 'status', status: 400, headers: throttled.headers, json: throttled.json })
    await expect(adapter.listComments!({ ...base, post, cursor: null, since: null })).rejects.toMatchObject({
      kind: 'rate_limited',
      retryAfterSec: 180,
    })
    fake.fault('GET', /published_posts$/, { kind: 'rate-limit', retryAfterSec: 45 })
    await expect(adapter.listPosts!({ ...base, cursor: null, since: ago(10) })).rejects.toMatchObject({
      kind: 'rate_limited',
      retryAfterSec: 45,
    })
    fake.expireToken()
    await expect(adapter.listPosts!({ ...base, cursor: null, since: ago(10) })).rejects.toMatchObject({
      kind: 'auth_expired',
    })
  })
})
