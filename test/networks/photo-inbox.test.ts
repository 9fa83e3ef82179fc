import { describe, expect, it } from 'vitest'
import { createPhotoAdapter } from '../../src/networks/adapters/photo'
import type { AdapterOptions } from '../../src/networks/adapters/options'
import { NetworkFailure } from '../../src/networks/http'
import { CommentGone, type NetworkComment } from '../../src/networks/inbox-adapter'
import { graphThrottled } from '../fakes/graph-inbox'
import { startPhotoFake } from '../fakes/photo'
import { fakeCommentMaker } from './support/fake-comments'

const NOW = new Date('2026-11-20T10:00:00.000Z')
const ago = (h: number) => new Date(NOW.getTime() - h * 3_600_000)
const igTime = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, '+0000')
const adapter = createPhotoAdapter({} as AdapterOptions)

async function setup() {
  const fake = await startPhotoFake({ host: 'facebook', now: () => NOW })
  const base = {
    accountId: 'acc_1',
    connection: 'SOCIALGRAPH_LOGIN',
    credentials: { accessToken: 'ig-token', igUserId: fake.igUserId },
    fetch: globalThis.fetch,
    baseUrl: fake.url,
    now: NOW,
  }
  const media = (n: number, hoursApart = 1) => {
    for (let i = 0; i < n; i++)
      fake.state.media.push({
        id: `1800000000${String(i).padStart(4, '0')}`,
        containerId: 'c',
        caption: `post ${i}`,
        mediaType: 'IMAGE',
        timestamp: igTime(ago(i * hoursApart + 1)),
        permalink: `https://photo.example/p/${i}/`,
        comments: [],
      })
  }
  const comment = fakeCommentMaker(fake.inbox.comments, (seq) => ({
    id: `1790${String(seq).padStart(6, '0')}`,
    authorId: `4400${seq}`,
    username: `fan${seq}`,
    timestamp: ago(10 - seq / 100),
  }))
  return { fake, base, media, comment }
}

describe('PHOTO_NET inbox', () => {
  it('lists the account posts newest first with counts, pages on the cursor and stops at since', async () => {
    const { base, media, fake } = await setup()
    media(60)
    const first = await adapter.listPosts!({ ...base, cursor: null, since: ago(24 * 30) })
    expect(first.posts).toHaveLength(50)
    expect(first.posts[0]).toMatchObject({
      platformPostId: '18000000000000',
      permalink: 'https://photo.example/p/0/',
      text: 'post 0',
      metrics: { likes: 7, comments: 0, shares: null, views: null, clicks: null },
    })
    expect(first.posts[0]!.publishedAt.toISOString()).toBe(ago(1).toISOString())
    const second = await adapter.listPosts!({ ...base, cursor: first.nextCursor, since: ago(24 * 30) })
    expect(second.posts.map((p) => p.text)).toEqual(Array.from({ length: 10 }, (_, i) => `post ${50 + i}`))
    expect(second.nextCursor).toBeNull()
    const recent = await adapter.listPosts!({ ...base, cursor: null, since: ago(5.5) })
    expect(recent.posts).toHaveLength(5)
    expect(recent.nextCursor).toBeNull()
    const asked = fake.calls('GET', /\/media$/)[0]!.query
    expect(asked.get('access_token')).toBe('ig-token')
    expect(asked.get('fields')).toContain('permalink')
  })

  it('lists comments with their replies as threads, following reply and comment pages', async () => {
    const { base, media, comment } = await setup()
    media(1)
    const post = { platformPostId: '18000000000000', publishedAt: ago(1), permalink: null }
    const top = comment(post.platformPostId, 'Lovely bread!')
    for (let i = 0; i < 3; i++) comment(post.platformPostId, `reply ${i}`, { parentId: top.id })
    for (let i = 0; i < 52; i++) comment(post.platformPostId, `more ${i}`)
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
    expect(all).toHaveLength(56)
    const thread = all.filter((c) => c.parentExternalId === top.id)
    expect(thread.map((c) => c.text)).toEqual(['reply 0', 'reply 1', 'reply 2'])
    expect(all.find((c) => c.externalId === top.id)).toMatchObject({
      parentExternalId: null,
      postExternalId: post.platformPostId,
      author: { handle: top.username, name: top.username, externalId: top.authorId },
      fromAccount: false,
      hidden: false,
    })
  })

  it('replies to the top-level comment with the message the reference requires', async () => {
    const { base, media, comment, fake } = await setup()
    media(1)
    const top = comment('18000000000000', 'Open on Sunday?')
    const sent = await adapter.replyToComment!({
      ...base,
      comment: { externalId: top.id, postExternalId: '18000000000000', parentExternalId: null },
      text: 'Yes, 8 to 12!',
      idempotencyKey: 'k1',
    })
    const call = fake.calls('POST', new RegExp(`/${top.id}/replies$`))[0]!
    expect(Object.fromEntries(call.form())).toEqual({ message: 'Yes, 8 to 12!', access_token: 'ig-token' })
    const stored = fake.inbox.comments.find((c) => c.id === sent.externalId)!
    expect(stored).toMatchObject({ parentId: top.id, authorId: fake.igUserId, text: 'Yes, 8 to 12!' })
    // A reply to a reply goes to its top-level comment, as the network does it.
    await adapter.replyToComment!({
      ...base,
      comment: { externalId: sent.externalId, postExternalId: '18000000000000', parentExternalId: top.id },
      text: 'See you',
      idempotencyKey: 'k2',
    })
    expect(fake.calls('POST', new RegExp(`/${top.id}/replies$`))).toHaveLength(2)
    const mine = await adapter.listComments!({
      ...base,
      post: { platformPostId: '18000000000000', publishedAt: ago(1), permalink: null },
      cursor: null,
      since: null,
    })
    expect(mine.comments.filter((c) => c.fromAccount)).toHaveLength(2)
  })

  it('hides, shows and deletes a comment; a deleted comment or post is gone', async () => {
    const { base, media, comment, fake } = await setup()
    media(1)
    const c = comment('18000000000000', 'spam spam')
    const ref = { externalId: c.id, postExternalId: '18000000000000', parentExternalId: null }
    await adapter.hideComment!({ ...base, comment: ref, hidden: true })
    expect(Object.fromEntries(fake.calls('POST', new RegExp(`/${c.id}$`))[0]!.form())).toMatchObject({ hide: 'true' })
    expect(c.hidden).toBe(true)
    await adapter.hideComment!({ ...base, comment: ref, hidden: false })
    expect(c.hidden).toBe(false)
    await adapter.deleteComment!({ ...base, comment: ref })
    expect(c.deleted).toBe(true)
    await expect(adapter.deleteComment!({ ...base, comment: ref })).rejects.toBeInstanceOf(CommentGone)
    await expect(
      adapter.replyToComment!({ ...base, comment: ref, text: 'hi', idempotencyKey: 'k' }),
    ).rejects.toBeInstanceOf(CommentGone)
    await expect(
      adapter.listComments!({
        ...base,
        post: { platformPostId: '18000000009999', publishedAt: ago(1), permalink: null },
        cursor: null,
        since: null,
      }),
    ).rejects.toBeInstanceOf(CommentGone)
    expect(adapter.likeComment).toBeUndefined()
  })

  it('lists media the account is tagged in as mentions', async () => {
    const { base, fake } = await setup()
    fake.inbox.tags.push({
      id: '18100000000001',
      caption: 'Best bakery @photo_user',
      username: 'visitor',
      timestamp: ago(2),
      permalink: 'https://photo.example/p/t1/',
    })
    const page = await adapter.listMentions!({ ...base, cursor: null, since: null })
    expect(page.comments).toEqual([
      expect.objectContaining({
        externalId: '18100000000001',
        postExternalId: '18100000000001',
        text: 'Best bakery @photo_user',
        permalink: 'https://photo.example/p/t1/',
        author: expect.objectContaining({ handle: 'visitor' }),
      }),
    ])
    expect(page.nextCursor).toBeNull()
  })

  it('throttling waits as the usage header says, a 429 by its Retry-After, an expired token asks to reconnect', async () => {
    const { base, media, fake } = await setup()
    media(1)
    const post = { platformPostId: '18000000000000', publishedAt: ago(1), permalink: null }
    const throttled = graphThrottled(7)
    fake.fault('GET', /\/comments$/, { kind: 'status', status: 400, headers: throttled.headers, json: throttled.json })
    const e1 = await adapter.listComments!({ ...base, post, cursor: null, since: null }).catch((e) => e)
    expect(e1).toBeInstanceOf(NetworkFailure)
    expect(e1).toMatchObject({ kind: 'rate_limited', retryAfterSec: 420 })
    fake.fault('GET', /\/media$/, { kind: 'rate-limit', retryAfterSec: 90 })
    const e2 = await adapter.listPosts!({ ...base, cursor: null, since: ago(100) }).catch((e) => e)
    expect(e2).toMatchObject({ kind: 'rate_limited', retryAfterSec: 90 })
    fake.expireToken()
    const e3 = await adapter.listPosts!({ ...base, cursor: null, since: ago(100) }).catch((e) => e)
    expect(e3).toMatchObject({ kind: 'auth_expired' })
  })
})
