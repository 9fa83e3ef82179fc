import { describe, expect, it } from 'vitest'
import { rulesFor } from '../../src/domain/rules/index'
import { PLATFORM_IDS } from '../../src/domain/vocabulary'
import { CommentGone } from '../../src/networks/inbox-adapter'
import { NetworkFailure } from '../../src/networks/http'
import type { NetworkComment } from '../../src/networks/adapter'
import { account } from '../support/fixtures'
import { createTestApp } from '../support/test-app'
import { callOf, publishText, sandboxFor, visitor } from './support/sandbox-inbox'

/** Every comment of the post, page after page (the sandbox pages by two here). */
async function allComments(
  sandbox: ReturnType<typeof sandboxFor>['sandbox'],
  accountId: string,
  postId: string,
  since: Date | null = null,
) {
  const pages: NetworkComment[][] = []
  let cursor: string | null = null
  do {
    const page = await sandbox.listComments!({
      ...callOf(accountId),
      post: { platformPostId: postId, publishedAt: new Date(), permalink: null },
      cursor,
      since,
    })
    pages.push(page.comments)
    cursor = page.nextCursor
  } while (cursor !== null)
  return pages
}

async function setUp() {
  const t = await createTestApp()
  const { store, sandbox } = sandboxFor(t)
  const owner = await account(t, 'MICROBLOG_NET', 'acme_news')
  const postId = await publishText(sandbox, owner.id, 'MICROBLOG_NET')
  const post = { id: postId, accountId: owner.id }
  return { t, store, sandbox, owner, post }
}

describe('sandbox network: posts listing', () => {
  it("lists the account's head posts newest first, page by page, since a date, with moving figures", async () => {
    const t = await createTestApp()
    const { sandbox } = sandboxFor(t)
    const owner = await account(t, 'MICROBLOG_NET', 'lister')
    const ids = []
    for (const text of ['one', 'two', 'three']) ids.push(await publishText(sandbox, owner.id, 'MICROBLOG_NET', text))
    await publishText(sandbox, (await account(t, 'MICROBLOG_NET', 'other')).id, 'MICROBLOG_NET', 'not mine')
    const since = new Date(Date.now() - 60_000)
    const first = await sandbox.listPosts!({ ...callOf(owner.id), cursor: null, since })
    expect(first.posts).toHaveLength(2)
    const second = await sandbox.listPosts!({ ...callOf(owner.id), cursor: first.nextCursor, since })
    expect(second.nextCursor).toBeNull()
    const listed = [...first.posts, ...second.posts]
    expect(listed.map((p) => p.text).sort()).toEqual(['one', 'three', 'two'])
    const times = listed.map((p) => p.publishedAt.getTime())
    expect(times).toEqual([...times].sort((a, b) => b - a))
    expect(listed[0]!.permalink).toBe(`https://sps.example.test/sandbox/posts/${listed[0]!.platformPostId}`)
    expect(listed[0]!.metrics).toHaveProperty('clicks')
    const later = await sandbox.listPosts!({ ...callOf(owner.id), cursor: null, since: new Date(Date.now() + 60_000) })
    expect(later).toEqual({ posts: [], nextCursor: null })
    await expect(sandbox.listPosts!({ ...callOf(owner.id), cursor: 'nonsense', since })).rejects.toBeInstanceOf(
      NetworkFailure,
    )
  })
})

describe('sandbox network: comments', () => {
  it('lists comments and replies oldest first, page by page, since the newest known, deleted ones left out', async () => {
    const { store, sandbox, owner, post } = await setUp()
    const first = await store.comments.add(visitor(post, 'first', 1))
    await store.comments.add(visitor(post, 'second', 2))
    const third = await store.comments.add(visitor(post, 'third', 3))
    const reply = await sandbox.replyToComment!({
      ...callOf(owner.id, new Date(Date.UTC(2026, 2, 10, 9, 0, 4))),
      comment: { externalId: first.id, postExternalId: post.id, parentExternalId: null },
      text: 'Thanks!',
      idempotencyKey: 'rpl_1',
    })
    const pages = await allComments(sandbox, owner.id, post.id)
    expect(pages.map((p) => p.map((c) => c.text))).toEqual([['first', 'second'], ['third', 'Thanks!'], []])
    const thanks = pages[1]![1]!
    expect(thanks).toMatchObject({
      externalId: reply.externalId,
      parentExternalId: first.id,
      postExternalId: post.id,
      fromAccount: true,
      hidden: false,
      author: { name: 'acme_news', handle: 'acme_news', externalId: owner.id },
    })
    expect(pages[0]![0]).toMatchObject({ fromAccount: false, author: { name: 'Visitor', handle: null } })
    expect(reply.permalink).toBe(`https://sps.example.test/sandbox/posts/${post.id}#${reply.externalId}`)

    const since = await allComments(sandbox, owner.id, post.id, third.createdAt)
    expect(since.flat().map((c) => c.text)).toEqual(['third', 'Thanks!'])

    await sandbox.deleteComment!({
      ...callOf(owner.id),
      comment: { externalId: first.id, postExternalId: post.id, parentExternalId: null },
    })
    expect((await allComments(sandbox, owner.id, post.id)).flat().map((c) => c.text)).toEqual(['second', 'third'])
  })

  it('sends a reply once per idempotency key', async () => {
    const { store, sandbox, owner, post } = await setUp()
    const comment = await store.comments.add(visitor(post, 'question?', 1))
    const ref = { externalId: comment.id, postExternalId: post.id, parentExternalId: null }
    const send = (key: string) =>
      sandbox.replyToComment!({ ...callOf(owner.id), comment: ref, text: 'Answer', idempotencyKey: key })
    const [a, b] = await Promise.all([send('key-1'), send('key-1')])
    expect(b).toEqual(a)
    expect((await send('key-1')).externalId).toBe(a!.externalId)
    expect((await send('key-2')).externalId).not.toBe(a!.externalId)
    expect((await allComments(sandbox, owner.id, post.id)).flat().filter((c) => c.text === 'Answer')).toHaveLength(2)
  })

  it('hides, unhides, likes and deletes on its own posts; a deleted comment or post is CommentGone', async () => {
    const { store, sandbox, owner, post } = await setUp()
    const comment = await store.comments.add(visitor(post, 'spam', 1))
    const under = await store.comments.add(visitor(post, 'under spam', 2, { replyToId: comment.id }))
    const ref = { externalId: comment.id, postExternalId: post.id, parentExternalId: null }
    await sandbox.hideComment!({ ...callOf(owner.id), comment: ref, hidden: true })
    expect(await store.comments.get(comment.id)).toMatchObject({ hidden: true })
    expect((await allComments(sandbox, owner.id, post.id)).flat()[0]).toMatchObject({ hidden: true })
    await sandbox.hideComment!({ ...callOf(owner.id), comment: ref, hidden: false })
    await sandbox.likeComment!({ ...callOf(owner.id), comment: ref })
    expect(await store.comments.get(comment.id)).toMatchObject({ hidden: false, liked: true })

    await sandbox.deleteComment!({ ...callOf(owner.id), comment: ref })
    expect((await store.comments.get(under.id))!.deletedAt).not.toBeNull()
    for (const act of [
      () => sandbox.deleteComment!({ ...callOf(owner.id), comment: ref }),
      () => sandbox.likeComment!({ ...callOf(owner.id), comment: ref }),
      () => sandbox.hideComment!({ ...callOf(owner.id), comment: ref, hidden: true }),
      () => sandbox.replyToComment!({ ...callOf(owner.id), comment: ref, text: 'late', idempotencyKey: 'k' }),
    ])
      await expect(act()).rejects.toBeInstanceOf(CommentGone)
    const unknown = { externalId: 'sbc_never', postExternalId: post.id, parentExternalId: null }
    await expect(sandbox.likeComment!({ ...callOf(owner.id), comment: unknown })).rejects.toBeInstanceOf(CommentGone)

    const other = await store.comments.add(visitor(post, 'still here', 3))
    expect(await store.delete(post.id)).toBe(true)
    const otherRef = { externalId: other.id, postExternalId: post.id, parentExternalId: null }
    await expect(sandbox.likeComment!({ ...callOf(owner.id), comment: otherRef })).rejects.toBeInstanceOf(CommentGone)
    await expect(allComments(sandbox, owner.id, post.id)).rejects.toBeInstanceOf(CommentGone)
  })

  it("refuses to hide or delete comments on another account's post", async () => {
    const { t, store, sandbox, post } = await setUp()
    const stranger = await account(t, 'MICROBLOG_NET', 'stranger')
    const comment = await store.comments.add(visitor(post, 'hello', 1))
    const ref = { externalId: comment.id, postExternalId: post.id, parentExternalId: null }
    await expect(sandbox.hideComment!({ ...callOf(stranger.id), comment: ref, hidden: true })).rejects.toMatchObject({
      kind: 'rejected',
    })
    await expect(sandbox.deleteComment!({ ...callOf(stranger.id), comment: ref })).rejects.toMatchObject({
      kind: 'rejected',
    })
    expect(await store.comments.get(comment.id)).toMatchObject({ hidden: false, deletedAt: null })
  })
})

describe('sandbox network: mentions', () => {
  it("lists comments naming @username on the workspace's other accounts' posts, nowhere else", async () => {
    const { t, store, sandbox, owner, post: ownPost } = await setUp()
    const friend = await account(t, 'MICROBLOG_NET', 'friend')
    const friendPost = { id: await publishText(sandbox, friend.id, 'MICROBLOG_NET'), accountId: friend.id }
    const mention = await store.comments.add(visitor(friendPost, 'Ask @ACME_NEWS about it!', 1))
    await store.comments.add(visitor(friendPost, '@acme_newsroom is someone else', 2))
    await store.comments.add(visitor(friendPost, 'no mention, acme_news', 3))
    await store.comments.add(visitor(ownPost, '@acme_news on its own post is a comment', 4))
    const deleted = await store.comments.add(visitor(friendPost, 'gone @acme_news', 5))
    await store.comments.markDeleted(deleted.id, new Date())
    const elsewhere = await createTestApp()
    const outsider = await account(elsewhere, 'MICROBLOG_NET', 'outsider')
    const outsiderPost = { id: await publishText(sandbox, outsider.id, 'MICROBLOG_NET'), accountId: outsider.id }
    await store.comments.add(visitor(outsiderPost, 'hi @acme_news from another workspace', 6))

    const listed: NetworkComment[] = []
    let cursor: string | null = null
    do {
      const page = await sandbox.listMentions!({ ...callOf(owner.id), cursor, since: null })
      listed.push(...page.comments)
      cursor = page.nextCursor
    } while (cursor !== null)
    expect(listed.map((c) => c.externalId)).toEqual([mention.id])
    expect(listed[0]).toMatchObject({ postExternalId: friendPost.id, fromAccount: false })
    const since = await sandbox.listMentions!({
      ...callOf(owner.id),
      cursor: null,
      since: new Date(Date.UTC(2026, 2, 10, 9, 0, 2)),
    })
    expect(since.comments).toEqual([])
  })
})

describe('sandbox network: what each platform view has', () => {
  it("offers only the inbox methods the platform's registry allows, as its real network would", async () => {
    const t = await createTestApp()
    const { sandbox } = sandboxFor(t)
    const methods = [
      'listPosts',
      'listComments',
      'listMentions',
      'replyToComment',
      'hideComment',
      'deleteComment',
      'likeComment',
    ] as const
    expect(methods.filter((m) => typeof sandbox[m] === 'function')).toEqual([...methods])
    const has = (platform: Parameters<typeof sandbox.forPlatform>[0]) => {
      const view = sandbox.forPlatform(platform)
      return methods.filter((m) => typeof view[m] === 'function')
    }
    const microblog = rulesFor('MICROBLOG_NET').inbox
    expect(has('MICROBLOG_NET').includes('hideComment')).toBe(microblog.hide)
    expect(has('MICROBLOG_NET').includes('deleteComment')).toBe(microblog.delete)
    expect(has('MICROBLOG_NET').includes('likeComment')).toBe(microblog.like)
    expect(has('MESSAGING_NET')).toEqual([])
    for (const platform of PLATFORM_IDS) {
      const rules = rulesFor(platform)
      expect(has(platform).includes('listComments')).toBe(rules.inbox.comments)
      expect(has(platform).includes('replyToComment')).toBe(rules.inbox.reply)
      expect(has(platform).includes('listMentions')).toBe(rules.inbox.mentions)
      expect(has(platform).includes('listPosts')).toBe(rules.insights.importsPosts)
    }
  })
})
