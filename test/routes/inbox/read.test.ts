/**
 * Reading the inbox: pages of comments (filters, cursor, newest first), a comment with its thread,
 * mentions, read and unread (one and many), the unread count, and another workspace's comment as 404.
 */
import { describe, expect, it } from 'vitest'
import { account, fixedClock } from '../../support/fixtures'
import { seedComments } from '../../support/inbox-seed'
import { createTestApp, type TestApp } from '../../support/test-app'

const START = Date.parse('2026-11-21T10:00:00Z')
const at = (minutes: number) => new Date(START + minutes * 60_000)

async function setup() {
  const t = await createTestApp({ clock: fixedClock('2026-11-22T10:00:00Z') })
  const a = await account(t, 'MICROBLOG_NET')
  const b = await account(t, 'PHOTO_NET')
  return { t, a, b }
}

async function json(t: TestApp, method: string, path: string, body?: unknown) {
  const res = await t.call(method, path, body === undefined ? {} : { body })
  return { status: res.status, body: (await res.json()) as any }
}

describe('GET /v1/inbox/comments', () => {
  it('pages newest first with a cursor, filters by account, platform and state, and leaves out the account’s own replies', async () => {
    const { t, a, b } = await setup()
    const mine = { workspaceId: t.workspaceId }
    const ids = await seedComments(t.deps.db, [
      ...Array.from({ length: 5 }, (_, i) => ({ ...mine, accountId: a.id, platform: 'MICROBLOG_NET', externalId: `a${i}`, createdAt: at(i) })),
      ...Array.from({ length: 3 }, (_, i) => ({ ...mine, accountId: b.id, platform: 'PHOTO_NET', externalId: `b${i}`, createdAt: at(10 + i), state: 'read' as const })),
      { ...mine, accountId: a.id, platform: 'MICROBLOG_NET', externalId: 'own', createdAt: at(20), fromAccount: true },
    ])
    const first = await json(t, 'GET', '/v1/inbox/comments?limit=3')
    expect(first.status).toBe(200)
    expect(first.body.data.map((c: any) => c.externalId)).toEqual(['b2', 'b1', 'b0'])
    expect(first.body.nextCursor).toBe(first.body.data[2].id)
    const second = await json(t, 'GET', `/v1/inbox/comments?limit=3&cursor=${first.body.nextCursor}`)
    expect(second.body.data.map((c: any) => c.externalId)).toEqual(['a4', 'a3', 'a2'])
    const last = await json(t, 'GET', `/v1/inbox/comments?limit=3&cursor=${second.body.nextCursor}`)
    expect(last.body).toMatchObject({ nextCursor: null })
    expect(last.body.data.map((c: any) => c.externalId)).toEqual(['a1', 'a0'])

    const byAccount = await json(t, 'GET', `/v1/inbox/comments?accountId=${b.id}`)
    expect(byAccount.body.data).toHaveLength(3)
    const byPlatform = await json(t, 'GET', '/v1/inbox/comments?platform=MICROBLOG_NET')
    expect(byPlatform.body.data).toHaveLength(5)
    const unread = await json(t, 'GET', '/v1/inbox/comments?state=unread')
    expect(unread.body.data.map((c: any) => c.state)).toEqual(Array(5).fill('unread'))
    expect(first.body.data[0]).toMatchObject({
      id: ids[7],
      kind: 'comment',
      accountId: b.id,
      platform: 'PHOTO_NET',
      author: { name: 'Author b2' },
      fromAccount: false,
      liked: false,
      gone: false,
    })
    expect((await json(t, 'GET', '/v1/inbox/comments?cursor=cmt_nope')).status).toBe(400)
  })

  it('answers a comment with the comments it answers and the replies under it; another workspace’s is 404', async () => {
    const { t, a } = await setup()
    const base = { workspaceId: t.workspaceId, accountId: a.id, platform: 'MICROBLOG_NET' }
    const [root] = await seedComments(t.deps.db, [{ ...base, externalId: 'root', createdAt: at(0) }])
    const [middle] = await seedComments(t.deps.db, [{ ...base, externalId: 'mid', createdAt: at(1), parentId: root! }])
    const [leaf] = await seedComments(t.deps.db, [{ ...base, externalId: 'leaf', createdAt: at(2), parentId: middle! }])
    const [own] = await seedComments(t.deps.db, [
      { ...base, externalId: 'mine', createdAt: at(3), parentId: middle!, fromAccount: true },
    ])
    const thread = await json(t, 'GET', `/v1/inbox/comments/${middle}`)
    expect(thread.status).toBe(200)
    expect(thread.body.comment.id).toBe(middle)
    expect(thread.body.ancestors.map((c: any) => c.id)).toEqual([root])
    expect(thread.body.replies.map((c: any) => c.id)).toEqual([leaf, own])
    expect(thread.body.replies[1]).toMatchObject({ fromAccount: true, parentId: middle })
    expect(thread.body.sentReplies).toEqual([])

    const other = await createTestApp()
    const foreign = await json(other, 'GET', `/v1/inbox/comments/${middle}`)
    expect(foreign.status).toBe(404)
    expect(foreign.body.error.code).toBe('not_found')
    expect((await json(other, 'POST', `/v1/inbox/comments/${middle}/read`)).status).toBe(404)
    const listed = await json(other, 'GET', '/v1/inbox/comments')
    expect(listed.body.data).toEqual([])
    const bulk = await json(other, 'POST', '/v1/inbox/comments/read', { commentIds: [middle] })
    expect(bulk.status).toBe(422)
    expect(bulk.body.error).toMatchObject({ code: 'invalid_option', details: [{ path: 'commentIds.0' }] })
  })

  it('marks read and unread, one or many, counts the unread, and lists mentions apart', async () => {
    const { t, a } = await setup()
    const base = { workspaceId: t.workspaceId, accountId: a.id, platform: 'MICROBLOG_NET' }
    const [c1, c2, c3, m1] = await seedComments(t.deps.db, [
      { ...base, externalId: 'c1', createdAt: at(0) },
      { ...base, externalId: 'c2', createdAt: at(1) },
      { ...base, externalId: 'c3', createdAt: at(2), state: 'replied' },
      { ...base, externalId: 'm1', createdAt: at(3), kind: 'mention' },
    ])
    expect((await json(t, 'GET', '/v1/inbox/unread-count')).body).toEqual({ unread: 3, comments: 2, mentions: 1 })
    const read = await json(t, 'POST', `/v1/inbox/comments/${c1}/read`)
    expect(read.body).toMatchObject({ id: c1, state: 'read' })
    const refused = await json(t, 'POST', '/v1/inbox/comments/read', { commentIds: [c2, m1, 'cmt_unknown'] })
    expect(refused.status).toBe(422)
    expect((await json(t, 'GET', '/v1/inbox/unread-count')).body.unread).toBe(2)
    const many = await json(t, 'POST', '/v1/inbox/comments/read', { commentIds: [c2, m1] })
    expect(many.body.updated.map((c: any) => c.state)).toEqual(['read', 'read'])
    expect((await json(t, 'GET', '/v1/inbox/unread-count')).body).toEqual({ unread: 0, comments: 0, mentions: 0 })
    const unread = await json(t, 'POST', `/v1/inbox/comments/${c1}/unread`)
    expect(unread.body.state).toBe('unread')
    // A replied comment stays replied whether it is read or not.
    expect((await json(t, 'POST', `/v1/inbox/comments/${c3}/unread`)).body.state).toBe('replied')

    const mentions = await json(t, 'GET', '/v1/inbox/mentions')
    expect(mentions.body.data.map((c: any) => c.id)).toEqual([m1])
    expect(mentions.body.data[0].kind).toBe('mention')
    const comments = await json(t, 'GET', '/v1/inbox/comments')
    expect(comments.body.data.map((c: any) => c.id)).toEqual([c3, c2, c1])
  })
})
