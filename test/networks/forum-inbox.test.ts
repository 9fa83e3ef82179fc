import { describe, expect, it } from 'vitest'
import { createForumAdapter } from '../../src/networks/adapters/forum'
import { NetworkFailure } from '../../src/networks/http'
import { CommentGone } from '../../src/networks/inbox-adapter'
import { startForumFake } from '../fakes/forum'
import type { FakeSubmission } from '../fakes/forum'

const NOW = new Date('2026-11-21T10:00:00.000Z')
const ago = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000)

async function setup(budget?: number) {
  const fake = await startForumFake({ budget })
  fake.state.clock = () => NOW
  const adapter = createForumAdapter({ clients: {}, origins: { FORUM_NET_OAUTH_URL: fake.url } as never })
  const credentials = { accessToken: 'forum_access_1', username: 'corner_bakery' }
  const call = { accountId: 'acc_1', connection: 'DIRECT_LOGIN', credentials, fetch, baseUrl: fake.url, now: NOW }
  let n = 0
  const submission = (title: string, created: Date): FakeSubmission => {
    const id = `p${++n}`
    const s: FakeSubmission = {
      id,
      name: `t3_${id}`,
      subreddit: 'bakers',
      title,
      kind: 'self',
      selftext: 'body',
      url: null,
      poster: null,
      gallery: [],
      flair_id: null,
      flair_text: null,
      over_18: false,
      spoiler: false,
      send_replies: true,
      created_utc: created.getTime() / 1000,
      score: 5,
      num_comments: 0,
      hiddenFor: 0,
      removed: false,
    }
    fake.state.submissions.push(s)
    return s
  }
  return { fake, adapter, call, submission }
}

describe('forum inbox', () => {
  it('lists the account submissions newest first, paged by after', async () => {
    const { fake, adapter, call, submission } = await setup()
    for (let i = 0; i < 103; i++) submission(`post ${i}`, ago(300 - i))
    const since = ago(60 * 24 * 30)
    const first = await adapter.listPosts!({ ...call, cursor: null, since })
    expect(first.posts).toHaveLength(100)
    expect(first.posts[0]).toMatchObject({
      platformPostId: 't3_p103',
      text: 'post 102\n\nbody',
      metrics: { likes: 5, comments: 0 },
    })
    expect(first.posts[0]!.permalink).toMatch(/^https:\/\/www\.reddit\.com\/r\/bakers\/comments\/p103\//)
    expect(first.nextCursor).toBe('t3_p4')
    const second = await adapter.listPosts!({ ...call, cursor: first.nextCursor, since })
    expect(second.posts.map((p) => p.platformPostId)).toEqual(['t3_p3', 't3_p2', 't3_p1'])
    expect(second.nextCursor).toBeNull()
    expect(fake.calls('GET', '/user/corner_bakery/submitted')[1]!.query.get('after')).toBe('t3_p4')
  })

  it('reads the comment tree, then the ids left in more stubs through morechildren', async () => {
    const { fake, adapter, call, submission } = await setup()
    const post = submission('my post', ago(900))
    const top = fake.comment(post.name, 'baker_fan', 'lovely', post.name, ago(800))
    const mine = fake.comment(post.name, 'corner_bakery', 'thanks', `t1_${top.id}`, ago(700))
    for (let i = 0; i < 520; i++) fake.comment(post.name, `user${i}`, `c ${i}`, post.name, ago(600 - i))
    const input = { ...call, post: { platformPostId: post.name, publishedAt: NOW, permalink: null }, since: null }
    const seen = []
    let cursor: string | null = null
    let pages = 0
    do {
      const page = await adapter.listComments!({ ...input, cursor })
      seen.push(...page.comments)
      cursor = page.nextCursor
      pages++
    } while (cursor)
    expect(seen).toHaveLength(522)
    expect(pages).toBe(2)
    expect(seen.find((c) => c.externalId === `t1_${mine.id}`)).toMatchObject({
      parentExternalId: `t1_${top.id}`,
      postExternalId: post.name,
      fromAccount: true,
    })
    expect(seen.find((c) => c.externalId === `t1_${top.id}`)).toMatchObject({
      parentExternalId: null,
      author: { name: 'baker_fan', handle: 'u/baker_fan' },
      fromAccount: false,
    })
    const more = fake.calls('GET', '/api/morechildren')[0]!
    expect(more.query.get('link_id')).toBe(post.name)
    expect(more.query.get('children')!.split(',')).toHaveLength(22)
  })

  it('lists username mentions', async () => {
    const { fake, adapter, call, submission } = await setup()
    const other = submission('someone else', ago(100))
    const m = fake.comment(other.name, 'fan', 'ask u/corner_bakery', other.name, ago(5))
    const page = await adapter.listMentions!({ ...call, cursor: null, since: null })
    expect(page.comments).toHaveLength(1)
    expect(page.comments[0]).toMatchObject({ externalId: `t1_${m.id}`, postExternalId: other.name })
  })

  it('replies with thing_id, upvotes, deletes its own comment', async () => {
    const { fake, adapter, call, submission } = await setup()
    const post = submission('my post', ago(900))
    const top = fake.comment(post.name, 'baker_fan', 'lovely', post.name, ago(800))
    const comment = { externalId: `t1_${top.id}`, postExternalId: post.name, parentExternalId: null }
    const sent = await adapter.replyToComment!({ ...call, comment, text: 'thank you', idempotencyKey: 'k' })
    const form = fake.calls('POST', '/api/comment')[0]!.form()
    expect(Object.fromEntries(form)).toEqual({ api_type: 'json', thing_id: `t1_${top.id}`, text: 'thank you' })
    expect(sent.permalink).toMatch(/^https:\/\/www\.reddit\.com\/r\/bakers\/comments\//)
    await adapter.likeComment!({ ...call, comment })
    expect(Object.fromEntries(fake.calls('POST', '/api/vote')[0]!.form())).toEqual({ id: `t1_${top.id}`, dir: '1' })
    expect(top.vote).toBe(1)
    await adapter.deleteComment!({ ...call, comment: { ...comment, externalId: sent.externalId } })
    expect(fake.comments.find((c) => `t1_${c.id}` === sent.externalId)!.deleted).toBe(true)
    const err = await adapter.deleteComment!({ ...call, comment }).catch((e) => e)
    expect(err).toBeInstanceOf(NetworkFailure)
    expect(err.message).toMatch(/own comments/)
    expect(top.deleted).toBe(false)
  })

  it('a spent budget is a rate limit with the reset from X-Ratelimit-Reset', async () => {
    const { adapter, call } = await setup(0)
    const err = await adapter.listMentions!({ ...call, cursor: null, since: null }).catch((e) => e)
    expect(err).toBeInstanceOf(NetworkFailure)
    expect(err).toMatchObject({ kind: 'rate_limited' })
    expect(err.retryAfterSec).toBeGreaterThan(0)
  })

  it('a deleted comment or post is gone', async () => {
    const { fake, adapter, call, submission } = await setup()
    const post = submission('my post', ago(900))
    const top = fake.comment(post.name, 'baker_fan', 'lovely', post.name, ago(800))
    top.deleted = true
    const comment = { externalId: `t1_${top.id}`, postExternalId: post.name, parentExternalId: null }
    await expect(adapter.replyToComment!({ ...call, comment, text: 'hi', idempotencyKey: 'k' })).rejects.toBeInstanceOf(
      CommentGone,
    )
    await expect(adapter.likeComment!({ ...call, comment })).rejects.toBeInstanceOf(CommentGone)
    post.removed = true
    await expect(
      adapter.listComments!({
        ...call,
        post: { platformPostId: post.name, publishedAt: NOW, permalink: null },
        cursor: null,
        since: null,
      }),
    ).rejects.toBeInstanceOf(CommentGone)
  })
})
