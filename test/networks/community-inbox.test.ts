import { describe, expect, it } from 'vitest'
import { createCommunityAdapter } from '../../src/networks/adapters/community'
import { NetworkFailure } from '../../src/networks/http'
import { CommentGone } from '../../src/networks/inbox-adapter'
import { startCommunityFake } from '../fakes/community'

const NOW = new Date('2026-11-21T10:00:00.000Z')
const ago = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000)
const BOB = { id: 31, name: 'bob', display_name: 'Bob' }

async function setup() {
  const fake = await startCommunityFake({ now: () => NOW })
  const adapter = createCommunityAdapter({ clients: {}, origins: {} as never })
  const credentials = { instanceUrl: fake.url, username: 'alice', jwt: fake.openSession(), personId: 7 }
  const call = { accountId: 'acc_1', connection: 'DIRECT_LOGIN', credentials, fetch, baseUrl: fake.url, now: NOW }
  return { fake, adapter, call }
}

describe('community inbox', () => {
  it('lists the account posts newest first, paged by page', async () => {
    const { fake, adapter, call } = await setup()
    for (let i = 0; i < 53; i++) fake.addPost(`post ${i}`, ago(200 - i))
    const since = ago(60 * 24 * 30)
    const first = await adapter.listPosts!({ ...call, cursor: null, since })
    expect(first.posts).toHaveLength(50)
    expect(first.posts[0]).toMatchObject({ text: 'post 52', metrics: { likes: 3, comments: 0, views: null } })
    expect(first.posts[0]!.permalink).toBe(`${fake.url}/post/${first.posts[0]!.platformPostId}`)
    expect(first.nextCursor).toBe('2')
    const second = await adapter.listPosts!({ ...call, cursor: first.nextCursor, since })
    expect(second.posts.map((p) => p.text)).toEqual(['post 2', 'post 1', 'post 0'])
    expect(second.nextCursor).toBeNull()
  })

  it('lists comments with their replies as a thread from the path, paged', async () => {
    const { fake, adapter, call } = await setup()
    const post = fake.addPost('my post', ago(500))
    const top = fake.comment(post.id, BOB, 'first!', null, ago(400))
    for (let i = 0; i < 55; i++) fake.comment(post.id, BOB, `c ${i}`, null, ago(300 - i))
    const reply = fake.comment(post.id, { id: 7, name: 'alice', display_name: 'Alice' }, 'thanks', top.id, ago(10))
    const input = { ...call, post: { platformPostId: String(post.id), publishedAt: NOW, permalink: null }, since: null }
    const first = await adapter.listComments!({ ...input, cursor: null })
    expect(first.comments).toHaveLength(50)
    expect(first.comments[0]).toMatchObject({
      externalId: String(reply.id),
      parentExternalId: String(top.id),
      postExternalId: String(post.id),
      fromAccount: true,
    })
    const second = await adapter.listComments!({ ...input, cursor: first.nextCursor })
    expect(second.nextCursor).toBeNull()
    expect(second.comments.at(-1)).toMatchObject({
      externalId: String(top.id),
      parentExternalId: null,
      fromAccount: false,
      author: { name: 'Bob', handle: `bob@${new URL(fake.url).host}` },
    })
    const req = fake.server.calls('GET', '/api/v3/comment/list')[1]!
    expect(Object.fromEntries(req.query)).toMatchObject({
      post_id: String(post.id),
      sort: 'New',
      page: '2',
      limit: '50',
    })
    const later = await adapter.listComments!({ ...input, cursor: null, since: ago(11) })
    expect(later.comments.map((c) => c.externalId)).toEqual([String(reply.id)])
    expect(later.nextCursor).toBeNull()
  })

  it('lists person mentions', async () => {
    const { fake, adapter, call } = await setup()
    const post = fake.addPost('a post', ago(500))
    const m = fake.comment(post.id, BOB, 'ping @alice', null, ago(5))
    const page = await adapter.listMentions!({ ...call, cursor: null, since: null })
    expect(page.comments.map((c) => c.externalId)).toEqual([String(m.id)])
  })

  it('replies with parent_id, upvotes, deletes its own reply and not others', async () => {
    const { fake, adapter, call } = await setup()
    const post = fake.addPost('my post', ago(500))
    const top = fake.comment(post.id, BOB, 'first!', null, ago(400))
    const comment = { externalId: String(top.id), postExternalId: String(post.id), parentExternalId: null }
    const sent = await adapter.replyToComment!({ ...call, comment, text: 'welcome', idempotencyKey: 'k1' })
    expect(fake.server.calls('POST', '/api/v3/comment')[0]!.json()).toEqual({
      content: 'welcome',
      post_id: post.id,
      parent_id: top.id,
    })
    expect(fake.comments.find((c) => String(c.id) === sent.externalId)!.path).toBe(`0.${top.id}.${sent.externalId}`)
    expect(sent.permalink).toBe(`${fake.url}/comment/${sent.externalId}`)
    await adapter.likeComment!({ ...call, comment })
    expect(fake.server.calls('POST', '/api/v3/comment/like')[0]!.json()).toEqual({ comment_id: top.id, score: 1 })
    await adapter.deleteComment!({ ...call, comment: { ...comment, externalId: sent.externalId } })
    expect(fake.comments.find((c) => String(c.id) === sent.externalId)!.deleted).toBe(true)
    const err = await adapter.deleteComment!({ ...call, comment }).catch((e) => e)
    expect(err).toBeInstanceOf(NetworkFailure)
    expect(err.kind).toBe('rejected')
  })

  it('a 429 from the instance carries its wait', async () => {
    const { fake, adapter, call } = await setup()
    fake.server.fault('GET', '/api/v3/user/mention', { kind: 'rate-limit', retryAfterSec: 60 })
    const err = await adapter.listMentions!({ ...call, cursor: null, since: null }).catch((e) => e)
    expect(err).toMatchObject({ kind: 'rate_limited', retryAfterSec: 60 })
  })

  it('a deleted post or comment is gone', async () => {
    const { fake, adapter, call } = await setup()
    const post = fake.addPost('my post', ago(500))
    const top = fake.comment(post.id, BOB, 'bye', null, ago(400))
    top.deleted = true
    const comment = { externalId: String(top.id), postExternalId: String(post.id), parentExternalId: null }
    await expect(adapter.replyToComment!({ ...call, comment, text: 'hi', idempotencyKey: 'k' })).rejects.toBeInstanceOf(
      CommentGone,
    )
    await expect(adapter.likeComment!({ ...call, comment })).rejects.toBeInstanceOf(CommentGone)
    post.deleted = true
    await expect(
      adapter.listComments!({
        ...call,
        post: { platformPostId: String(post.id), publishedAt: NOW, permalink: null },
        cursor: null,
        since: null,
      }),
    ).rejects.toBeInstanceOf(CommentGone)
  })
})
