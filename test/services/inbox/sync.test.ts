import { and, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { accountSync, inboxComments, posts, webhookEvents } from '../../../src/db/schema'
import type { NetworkComment, NetworkPost } from '../../../src/networks/adapter'
import { syncAccount, syncDueAccounts } from '../../../src/services/inbox/sync'
import { inboxAdapter, startInboxNetwork } from '../../fakes/inbox-network'
import { account, fixedClock } from '../../support/fixtures'
import { createTestApp } from '../../support/test-app'

const NOW = new Date('2026-11-21T10:00:00Z')
const hoursAgo = (h: number) => new Date(NOW.getTime() - h * 3_600_000)
const figures = {
  likes: 4,
  comments: 2,
  shares: null,
  views: 40,
  saves: null,
  clicks: null,
  impressions: null,
  reach: null,
}

const post = (id: string, h: number): NetworkPost => ({
  platformPostId: id,
  permalink: `https://net.example/p/${id}`,
  text: `post ${id}`,
  publishedAt: hoursAgo(h),
  mediaUrls: [],
  metrics: figures,
})
const comment = (id: string, h: number, extra: Partial<NetworkComment> = {}): NetworkComment => ({
  externalId: id,
  parentExternalId: null,
  postExternalId: null,
  author: { externalId: `u-${id}`, name: `Person ${id}`, handle: null, avatarUrl: null },
  text: `comment ${id}`,
  createdAt: hoursAgo(h),
  permalink: null,
  fromAccount: false,
  hidden: null,
  ...extra,
})

async function setup() {
  const net = await startInboxNetwork()
  const adapter = inboxAdapter()
  const t = await createTestApp({
    clock: fixedClock(NOW.toISOString()),
    networkRegistry: { adapterFor: () => adapter, baseUrlFor: () => net.server.url, fetch: globalThis.fetch },
  })
  const events = async () =>
    (await t.deps.db.select().from(webhookEvents).where(eq(webhookEvents.workspaceId, t.workspaceId))).map(
      (e) => e.type,
    )
  return { t, net, events }
}

describe('inbox sync', () => {
  it('imports recent posts once, reads paged comments and mentions, one event per new comment', async () => {
    const { t, net, events } = await setup()
    const a = await account(t, 'FEDERATED_NET', 'one')
    net.data.posts.set(a.id, [post('p1', 1), post('p2', 2), post('p3', 3), post('p4', 4), post('old', 24 * 40)])
    const list = ['c1', 'c2', 'c3', 'c4', 'c5'].map((id, i) => comment(id, 0.5 - i * 0.01))
    list.push(comment('c6', 0.1, { parentExternalId: 'c1' }), comment('own', 0.1, { fromAccount: true }))
    net.data.comments.set('p1', list)
    net.data.mentions.set(a.id, [comment('m1', 0.2)])

    const first = await syncAccount(t.deps, { accountId: a.id, now: NOW })
    expect(first.failed).toEqual([])
    const imported = await t.deps.db
      .select()
      .from(posts)
      .where(and(eq(posts.workspaceId, t.workspaceId), eq(posts.source, 'external')))
    expect(imported.map((p) => p.caption).sort()).toEqual(['post p1', 'post p2', 'post p3', 'post p4'])
    const rows = await t.deps.db.select().from(inboxComments).where(eq(inboxComments.accountId, a.id))
    expect(rows).toHaveLength(8)
    const c6 = rows.find((r) => r.externalId === 'c6')!
    expect(c6.parentId).toBe(rows.find((r) => r.externalId === 'c1')!.id)
    const types = await events()
    expect(types.filter((x) => x === 'comment.received')).toHaveLength(6)
    expect(types.filter((x) => x === 'mention.received')).toHaveLength(1)

    const later = new Date(NOW.getTime() + 3_600_000)
    await t.deps.db.update(accountSync).set({ nextRunAt: later }).where(eq(accountSync.accountId, a.id))
    await syncAccount(t.deps, { accountId: a.id, now: later })
    expect(
      await t.deps.db
        .select()
        .from(posts)
        .where(and(eq(posts.workspaceId, t.workspaceId), eq(posts.source, 'external'))),
    ).toHaveLength(4)
    expect((await events()).filter((x) => x.endsWith('.received'))).toHaveLength(7)
  })

  it('a 429 holds only that account until its Retry-After; a failure backs off, doubling', async () => {
    const { t, net } = await setup()
    const slow = await account(t, 'FEDERATED_NET', 'slow')
    const fine = await account(t, 'FEDERATED_NET', 'fine')
    const broken = await account(t, 'FEDERATED_NET', 'broken')
    for (const a of [slow, fine, broken]) net.data.posts.set(a.id, [post(`p-${a.id}`, 1)])
    net.data.refuse.set(slow.id, { status: 429, retryAfterSec: 120 })
    net.data.refuse.set(broken.id, { status: 500 })
    const report = await syncDueAccounts(t.deps, { now: NOW, workspaceId: t.workspaceId })
    expect(report.accounts).toBe(3)
    const rows = await t.deps.db.select().from(accountSync)
    const of = (id: string, stream: string) => rows.find((r) => r.accountId === id && r.stream === stream)!
    for (const stream of ['posts', 'comments', 'mentions'])
      expect(of(slow.id, stream).backoffUntil).toEqual(new Date(NOW.getTime() + 120_000))
    expect(of(fine.id, 'posts').backoffUntil).toBeNull()
    expect(of(fine.id, 'posts').lastSuccessAt).toEqual(NOW)
    expect(of(broken.id, 'posts')).toMatchObject({ failures: 1, lastError: { code: 'transient' } })
    expect(of(broken.id, 'posts').backoffUntil).toEqual(new Date(NOW.getTime() + 60_000))

    const next = new Date(NOW.getTime() + 61_000)
    await syncAccount(t.deps, { accountId: broken.id, now: next })
    const [again] = await t.deps.db
      .select()
      .from(accountSync)
      .where(and(eq(accountSync.accountId, broken.id), eq(accountSync.stream, 'posts')))
    expect(again).toMatchObject({ failures: 2 })
    expect(again!.backoffUntil).toEqual(new Date(next.getTime() + 120_000))
  })

  it('runs one sync per account at a time (the lease)', async () => {
    const { t, net } = await setup()
    const a = await account(t, 'FEDERATED_NET', 'leased')
    net.data.posts.set(a.id, [post('x', 1)])
    await syncDueAccounts(t.deps, { now: NOW, workspaceId: t.workspaceId })
    const later = new Date(NOW.getTime() + 3_600_000)
    await t.deps.db
      .update(accountSync)
      .set({ leaseUntil: new Date(later.getTime() + 60_000), leaseHolder: 'other' })
      .where(eq(accountSync.accountId, a.id))
    expect((await syncAccount(t.deps, { accountId: a.id, now: later })).ran).toBe(false)
    await t.deps.db
      .update(accountSync)
      .set({ leaseUntil: null, leaseHolder: null })
      .where(eq(accountSync.accountId, a.id))
    expect((await syncAccount(t.deps, { accountId: a.id, now: later })).ran).toBe(true)
  })
})
