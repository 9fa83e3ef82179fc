import { describe, expect, it } from 'vitest'
import { createProfessionalAdapter } from '../../src/networks/adapters/professional'
import type { AdapterOptions } from '../../src/networks/adapters/options'
import { CommentGone, type NetworkComment } from '../../src/networks/inbox-adapter'
import type { FakeLinkedInComment } from '../fakes/professional-inbox'
import { startProfessionalFake } from '../fakes/professional'

const NOW = new Date('2026-11-24T10:00:00.000Z')
const ago = (h: number) => new Date(NOW.getTime() - h * 3_600_000)
const ORG = 'urn:li:organization:2414183'
const adapter = createProfessionalAdapter({} as AdapterOptions)

async function setup() {
  const fake = await startProfessionalFake()
  const base = {
    accountId: 'acc_1',
    connection: 'DIRECT_LOGIN',
    credentials: { accessToken: 'li-token', authorUrn: ORG },
    fetch: globalThis.fetch,
    baseUrl: fake.url,
    now: NOW,
  }
  const posts = (n: number) => {
    for (let i = 0; i < n; i++)
      fake.state.posts.push({
        urn: `urn:li:share:70000000000000${String(i).padStart(4, '0')}`,
        author: ORG,
        commentary: `update ${i}`,
        content: null,
        body: {},
        publishedAt: ago(i * 24 + 1).getTime(),
      })
  }
  let seq = 0
  const comment = (postUrn: string, text: string, over: Partial<FakeLinkedInComment> = {}) => {
    const id = String(6_000 + ++seq)
    const c: FakeLinkedInComment = {
      id,
      urn: `urn:li:comment:(${postUrn},${id})`,
      postUrn,
      parentUrn: null,
      actor: `urn:li:person:member${seq}`,
      text,
      time: ago(50).getTime() + seq * 60_000,
      deleted: false,
      likedBy: [],
      ...over,
    }
    fake.inbox.comments.push(c)
    return c
  }
  const post = { platformPostId: 'urn:li:share:700000000000000000', publishedAt: ago(1), permalink: null }
  return { fake, base, posts, comment, post }
}

describe('PROFESSIONAL_NET inbox', () => {
  it('lists the author posts newest first, start/count paging, stopping at since', async () => {
    const { base, posts, fake } = await setup()
    posts(60)
    const first = await adapter.listPosts!({ ...base, cursor: null, since: ago(24 * 90) })
    expect(first.posts).toHaveLength(50)
    expect(first.posts[0]).toMatchObject({
      platformPostId: 'urn:li:share:700000000000000000',
      text: 'update 0',
      permalink: 'https://www.linkedin.com/feed/update/urn:li:share:700000000000000000/',
    })
    expect(first.nextCursor).toBe('50')
    const second = await adapter.listPosts!({ ...base, cursor: first.nextCursor, since: ago(24 * 90) })
    expect(second.posts).toHaveLength(10)
    expect(second.nextCursor).toBeNull()
    expect((await adapter.listPosts!({ ...base, cursor: null, since: ago(24 * 2) })).posts).toHaveLength(2)
    const call = fake.calls('GET', '/rest/posts')[0]!
    expect(call.headers).toMatchObject({ authorization: 'Bearer li-token', 'x-restli-protocol-version': '2.0.0' })
    expect(call.query.get('author')).toBe(ORG)
  })

  it('lists comments and the replies under each, over pages', async () => {
    const { base, posts, comment, post } = await setup()
    posts(1)
    const top = comment(post.platformPostId, 'Congratulations!')
    for (let i = 0; i < 3; i++) comment(post.platformPostId, `thanks ${i}`, { parentUrn: top.urn })
    for (let i = 0; i < 52; i++) comment(post.platformPostId, `c${i}`)
    const all: NetworkComment[] = []
    let cursor: string | null = null
    do {
      const page = await adapter.listComments!({ ...base, post, cursor, since: null })
      all.push(...page.comments)
      cursor = page.nextCursor
    } while (cursor)
    expect(all).toHaveLength(56)
    expect(all.filter((c) => c.parentExternalId === top.urn)).toHaveLength(3)
    expect(all.find((c) => c.externalId === top.urn)).toMatchObject({
      postExternalId: post.platformPostId,
      author: { externalId: top.actor },
      text: 'Congratulations!',
      fromAccount: false,
      hidden: null,
    })
  })

  it('replies with actor, object, parentComment and message; likes and deletes as the organisation', async () => {
    const { base, posts, comment, post, fake } = await setup()
    posts(1)
    const top = comment(post.platformPostId, 'Hiring?')
    const ref = { externalId: top.urn, postExternalId: post.platformPostId, parentExternalId: null }
    const sent = await adapter.replyToComment!({
      ...base,
      comment: ref,
      text: 'Yes, see our page',
      idempotencyKey: 'k',
    })
    const call = fake.calls('POST', /\/rest\/socialActions\/.+\/comments$/)[0]!
    expect(decodeURIComponent(call.path)).toBe(`/rest/socialActions/${top.urn}/comments`)
    expect(call.json()).toEqual({
      actor: ORG,
      object: post.platformPostId,
      parentComment: top.urn,
      message: { text: 'Yes, see our page' },
    })
    expect(call.headers['linkedin-version']).toMatch(/^\d{6}$/)
    const reply = fake.inbox.comments.find((c) => c.urn === sent.externalId)!
    expect(reply).toMatchObject({ parentUrn: top.urn, actor: ORG })
    await adapter.likeComment!({ ...base, comment: ref })
    expect(top.likedBy).toEqual([ORG])
    expect(fake.calls('POST', '/rest/reactions')[0]!.json()).toEqual({ root: top.urn, reactionType: 'LIKE' })
    await adapter.deleteComment!({
      ...base,
      comment: { externalId: sent.externalId, postExternalId: post.platformPostId, parentExternalId: top.urn },
    })
    expect(reply.deleted).toBe(true)
    await adapter.deleteComment!({ ...base, comment: ref })
    expect(top.deleted).toBe(true)
    await expect(adapter.deleteComment!({ ...base, comment: ref })).rejects.toBeInstanceOf(CommentGone)
    await expect(
      adapter.replyToComment!({ ...base, comment: ref, text: 'x', idempotencyKey: 'k2' }),
    ).rejects.toBeInstanceOf(CommentGone)
    expect(adapter.hideComment).toBeUndefined()
    expect(adapter.listMentions).toBeUndefined()
  })

  it('a 429 waits for its Retry-After (or the next UTC day), a revoked token reconnects', async () => {
    const { base, posts, post, fake } = await setup()
    posts(1)
    fake.fault('GET', /\/rest\/socialActions\//, { kind: 'rate-limit', retryAfterSec: 75 })
    await expect(adapter.listComments!({ ...base, post, cursor: null, since: null })).rejects.toMatchObject({
      kind: 'rate_limited',
      retryAfterSec: 75,
    })
    fake.failNext(/GET \/rest\/posts/, fake.error(429, 'TOO_MANY_REQUESTS', 'Resource level throttle limit reached'))
    await expect(adapter.listPosts!({ ...base, cursor: null, since: ago(5) })).rejects.toMatchObject({
      kind: 'rate_limited',
      retryAfterSec: 14 * 3600,
    })
    fake.state.token = 'other'
    await expect(adapter.listPosts!({ ...base, cursor: null, since: ago(5) })).rejects.toMatchObject({
      kind: 'auth_expired',
    })
  })
})
