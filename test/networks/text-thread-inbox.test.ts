import { describe, expect, it } from 'vitest'
import { createTextThreadAdapter } from '../../src/networks/adapters/text-thread'
import type { AdapterOptions } from '../../src/networks/adapters/options'
import { CommentGone, type NetworkComment } from '../../src/networks/inbox-adapter'
import { NetworkFailure } from '../../src/networks/http'
import { graphThrottled } from '../fakes/graph-inbox'
import { startTextThreadFake } from '../fakes/text-thread'
import { fakeCommentMaker } from './support/fake-comments'

const NOW = new Date('2026-11-22T10:00:00.000Z')
const ago = (h: number) => new Date(NOW.getTime() - h * 3_600_000)
const thTime = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, '+0000')
const adapter = createTextThreadAdapter({} as AdapterOptions)

async function setup() {
  const fake = await startTextThreadFake({ now: () => NOW })
  const base = {
    accountId: 'acc_1',
    connection: 'DIRECT_LOGIN',
    credentials: { accessToken: 'th-token', userId: fake.userId },
    fetch: globalThis.fetch,
    baseUrl: fake.url,
    now: NOW,
  }
  const threads = (n: number) => {
    for (let i = 0; i < n; i++)
      fake.state.posts.push({
        id: `1810000000${String(i).padStart(4, '0')}`,
        containerId: 'c',
        text: `thread ${i}`,
        mediaType: 'TEXT',
        replyTo: null,
        linkAttachment: null,
        timestamp: thTime(ago(i + 1)),
        permalink: `https://threads.example/@thread_user/post/t${i}`,
        deleted: false,
      })
  }
  const reply = fakeCommentMaker(fake.inbox.replies, (seq) => ({
    id: `1820000000${String(seq).padStart(4, '0')}`,
    authorId: '',
    username: `reader${seq}`,
    timestamp: new Date(ago(20).getTime() + seq * 60_000),
  }))
  const post = { platformPostId: '18100000000000', publishedAt: ago(1), permalink: null }
  return { fake, base, threads, reply, post }
}

describe('TEXTTHREAD_NET inbox', () => {
  it('lists the account threads since a date, page by page, with the token in the query', async () => {
    const { base, threads, fake } = await setup()
    threads(60)
    const first = await adapter.listPosts!({ ...base, cursor: null, since: ago(24 * 30) })
    expect(first.posts).toHaveLength(50)
    expect(first.posts[0]).toMatchObject({
      platformPostId: '18100000000000',
      text: 'thread 0',
      permalink: 'https://threads.example/@thread_user/post/t0',
      metrics: { likes: null, views: null },
    })
    const second = await adapter.listPosts!({ ...base, cursor: first.nextCursor, since: ago(24 * 30) })
    expect(second.posts).toHaveLength(10)
    expect(second.nextCursor).toBeNull()
    const q = fake.calls('GET', /\/threads$/)[0]!.query
    expect(q.get('access_token')).toBe('th-token')
    expect(q.get('since')).toBe(String(Math.floor(ago(24 * 30).getTime() / 1000)))
  })

  it('lists every reply of a thread, nested ones with their parent, newest first, over pages', async () => {
    const { base, threads, reply, post } = await setup()
    threads(1)
    const top = reply(post.platformPostId, 'Nice thread')
    reply(post.platformPostId, 'Agreed', { parentId: top.id })
    for (let i = 0; i < 55; i++) reply(post.platformPostId, `r${i}`)
    const all: NetworkComment[] = []
    let cursor: string | null = null
    do {
      const page = await adapter.listComments!({ ...base, post, cursor, since: null })
      all.push(...page.comments)
      cursor = page.nextCursor
    } while (cursor)
    expect(all).toHaveLength(57)
    expect(all[0]!.text).toBe('r54')
    expect(all.find((c) => c.externalId === top.id)).toMatchObject({
      parentExternalId: null,
      postExternalId: post.platformPostId,
      author: { handle: top.username },
      hidden: false,
      fromAccount: false,
    })
    expect(all.find((c) => c.text === 'Agreed')).toMatchObject({ parentExternalId: top.id })
    const since = all.find((c) => c.text === 'r40')!.createdAt
    expect((await adapter.listComments!({ ...base, post, cursor: null, since })).nextCursor).toBeNull()
  })

  it('replies through a TEXT container with reply_to_id, then publishes it; the reply is listed as ours', async () => {
    const { base, threads, reply, post, fake } = await setup()
    threads(1)
    const top = reply(post.platformPostId, 'Where is this?')
    const ref = { externalId: top.id, postExternalId: post.platformPostId, parentExternalId: null }
    const sent = await adapter.replyToComment!({ ...base, comment: ref, text: 'Lisbon!', idempotencyKey: 'k' })
    const created = fake.calls('POST', new RegExp(`/${fake.userId}/threads$`))[0]!
    expect(Object.fromEntries(created.form())).toEqual({
      media_type: 'TEXT',
      text: 'Lisbon!',
      reply_to_id: top.id,
      access_token: 'th-token',
    })
    expect(fake.calls('POST', /threads_publish$/)).toHaveLength(1)
    expect(sent.permalink).toMatch(/^https:\/\/threads\.example\//)
    const listed = await adapter.listComments!({ ...base, post, cursor: null, since: null })
    expect(listed.comments.find((c) => c.externalId === sent.externalId)).toMatchObject({
      fromAccount: true,
      parentExternalId: top.id,
      text: 'Lisbon!',
    })
  })

  it('hides and shows a top-level reply, refuses a nested one, and a deleted thread is gone', async () => {
    const { base, threads, reply, post, fake } = await setup()
    threads(1)
    const top = reply(post.platformPostId, 'rude words')
    const nested = reply(post.platformPostId, 'more', { parentId: top.id })
    await adapter.hideComment!({
      ...base,
      comment: { externalId: top.id, postExternalId: post.platformPostId, parentExternalId: null },
      hidden: true,
    })
    expect(Object.fromEntries(fake.calls('POST', /manage_reply$/)[0]!.form())).toMatchObject({ hide: 'true' })
    expect(top.hidden).toBe(true)
    const listed = await adapter.listComments!({ ...base, post, cursor: null, since: null })
    expect(listed.comments.find((c) => c.externalId === top.id)!.hidden).toBe(true)
    await adapter.hideComment!({
      ...base,
      comment: { externalId: top.id, postExternalId: post.platformPostId, parentExternalId: null },
      hidden: false,
    })
    expect(top.hidden).toBe(false)
    await expect(
      adapter.hideComment!({
        ...base,
        comment: { externalId: nested.id, postExternalId: post.platformPostId, parentExternalId: top.id },
        hidden: true,
      }),
    ).rejects.toMatchObject({ kind: 'rejected' })
    top.deleted = true
    await expect(
      adapter.hideComment!({
        ...base,
        comment: { externalId: top.id, postExternalId: post.platformPostId, parentExternalId: null },
        hidden: true,
      }),
    ).rejects.toBeInstanceOf(CommentGone)
    fake.state.posts[0]!.deleted = true
    await expect(adapter.listComments!({ ...base, post, cursor: null, since: null })).rejects.toBeInstanceOf(
      CommentGone,
    )
    expect(adapter.deleteComment).toBeUndefined()
    expect(adapter.likeComment).toBeUndefined()
  })

  it('lists mentions of the account', async () => {
    const { base, fake } = await setup()
    fake.inbox.mentions.push({
      id: '18300000000001',
      text: 'cc @thread_user',
      username: 'pal',
      timestamp: ago(3),
      rootId: '18300000000001',
    })
    const page = await adapter.listMentions!({ ...base, cursor: null, since: null })
    expect(page.comments).toEqual([
      expect.objectContaining({
        externalId: '18300000000001',
        text: 'cc @thread_user',
        postExternalId: '18300000000001',
        author: expect.objectContaining({ handle: 'pal' }),
      }),
    ])
  })

  it('throttling and 429 carry their wait; an expired token asks to reconnect', async () => {
    const { base, threads, post, fake } = await setup()
    threads(1)
    const throttled = graphThrottled(2, 4)
    fake.fault('GET', /\/conversation$/, {
      kind: 'status',
      status: 400,
      headers: throttled.headers,
      json: throttled.json,
    })
    const e = await adapter.listComments!({ ...base, post, cursor: null, since: null }).catch((x) => x)
    expect(e).toBeInstanceOf(NetworkFailure)
    expect(e).toMatchObject({ kind: 'rate_limited', retryAfterSec: 120 })
    fake.fault('GET', /\/threads$/, { kind: 'rate-limit', retryAfterSec: 30 })
    await expect(adapter.listPosts!({ ...base, cursor: null, since: ago(5) })).rejects.toMatchObject({
      kind: 'rate_limited',
      retryAfterSec: 30,
    })
    fake.expireToken()
    await expect(adapter.listPosts!({ ...base, cursor: null, since: ago(5) })).rejects.toMatchObject({
      kind: 'auth_expired',
    })
  })
})
