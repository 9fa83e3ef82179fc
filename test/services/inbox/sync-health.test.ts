import { and, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { accountSync, inboxComments, posts, targetCommentSync, targets } from '../../../src/db/schema'
import type { NetworkComment, NetworkPost } from '../../../src/networks/adapter'
import { syncAccount } from '../../../src/services/inbox/sync'
import { inboxAdapter, startInboxNetwork } from '../../fakes/inbox-network'
import { account, fixedClock } from '../../support/fixtures'
import { createTestApp } from '../../support/test-app'

const NOW = new Date('2026-11-21T10:00:00Z')
const at = (ms: number) => new Date(NOW.getTime() + ms)
const none = { likes: null, comments: null, shares: null, views: null, saves: null, clicks: null }
const post = (id: string, h: number): NetworkPost => ({
  platformPostId: id,
  permalink: `https://net.example/p/${id}`,
  text: `post ${id}`,
  publishedAt: at(-h * 3_600_000),
  mediaUrls: [],
  metrics: { ...none, impressions: null, reach: null },
})
const comment = (id: string): NetworkComment => ({
  externalId: id,
  parentExternalId: null,
  postExternalId: null,
  author: { externalId: `u-${id}`, name: `Person ${id}`, handle: null, avatarUrl: null },
  text: `comment ${id}`,
  createdAt: at(-600_000),
  permalink: null,
  fromAccount: false,
  hidden: null,
})

async function setup() {
  const net = await startInboxNetwork()
  const adapter = inboxAdapter()
  const t = await createTestApp({
    clock: fixedClock(NOW.toISOString()),
    networkRegistry: { adapterFor: () => adapter, baseUrlFor: () => net.server.url, fetch: globalThis.fetch },
  })
  const a = await account(t, 'FEDERATED_NET', 'one')
  const streams = async () => {
    const rows = await t.deps.db.select().from(accountSync).where(eq(accountSync.accountId, a.id))
    return (stream: string) => rows.find((r) => r.stream === stream)!
  }
  return { t, net, a, streams }
}

describe('inbox sync: health, refresh, import rules, gone posts', () => {
  it('shows a failing sync on the account (GET /v1/accounts/{id}) until a run succeeds', async () => {
    const { t, net, a } = await setup()
    expect((await (await t.call('GET', `/v1/accounts/${a.id}`)).json()).sync).toBeNull()
    net.data.refuse.set(a.id, { status: 500 })
    await syncAccount(t.deps, { accountId: a.id, now: NOW })
    const failing = (await (await t.call('GET', `/v1/accounts/${a.id}`)).json()).sync
    expect(failing).toMatchObject({
      status: 'failing',
      lastError: { code: 'transient', message: 'The network answered 500.', failures: 1 },
    })
    expect(new Date(failing.nextAttemptAt).getTime()).toBeGreaterThan(NOW.getTime())
    const [listed] = await (await t.call('GET', '/v1/accounts')).json()
    expect(listed.sync.status).toBe('failing')

    net.data.refuse.delete(a.id)
    const later = at(61_000)
    await syncAccount(t.deps, { accountId: a.id, now: later })
    const ok = (await (await t.call('GET', `/v1/accounts/${a.id}`)).json()).sync
    expect(ok).toMatchObject({ status: 'ok', lastSuccessAt: later.toISOString(), lastError: null })
    expect(new Date(ok.nextAttemptAt).getTime()).toBeGreaterThan(later.getTime())
  })

  it('runs a stream a refresh asked for now, and clears the ask when the run ends, failed or not', async () => {
    const { t, net, a, streams } = await setup()
    net.data.posts.set(a.id, [post('p1', 1)])
    await syncAccount(t.deps, { accountId: a.id, now: NOW })
    const asked = at(60_000)
    const res = await t.call('POST', '/v1/analytics/refresh', { body: { accountId: a.id } })
    expect(res.status).toBeLessThan(300)
    await t.deps.db.update(accountSync).set({ requestedAt: asked }).where(eq(accountSync.accountId, a.id))
    net.data.posts.set(a.id, [post('p2', 0), post('p1', 1)])

    // Not due by time (the interval has not passed), due because it was asked for.
    await syncAccount(t.deps, { accountId: a.id, now: at(120_000) })
    let of = await streams()
    expect(of('posts').requestedAt).toBeNull()
    expect(of('comments').requestedAt).toBeNull()
    expect(of('posts').lastSuccessAt).toEqual(at(120_000))
    const external = and(eq(posts.workspaceId, t.workspaceId), eq(posts.source, 'external'))
    expect(await t.deps.db.select().from(posts).where(external)).toHaveLength(2)

    net.data.refuse.set(a.id, { status: 500 })
    await t.deps.db
      .update(accountSync)
      .set({ requestedAt: at(130_000) })
      .where(eq(accountSync.stream, 'posts'))
    await syncAccount(t.deps, { accountId: a.id, now: at(140_000) })
    of = await streams()
    expect(of('posts')).toMatchObject({ requestedAt: null, failures: 1, lastError: { code: 'transient' } })
    // What still shows as refreshing is the figures' collection (the metrics stream), not the sync.
    const waiting = await t.deps.db.select().from(accountSync).where(eq(accountSync.accountId, a.id))
    expect(waiting.filter((r) => r.requestedAt !== null).map((r) => r.stream)).toEqual(['metrics'])
  })

  it('a refresh asked for while a run is under way stays for the next run', async () => {
    const { t, a, streams } = await setup()
    await t.deps.db.insert(accountSync).values({ accountId: a.id, stream: 'posts', requestedAt: at(5_000) })
    await syncAccount(t.deps, { accountId: a.id, now: NOW })
    expect((await streams())('posts').requestedAt).toEqual(at(5_000))
  })

  it('does not import a post the service published itself (same platformPostId)', async () => {
    const { t, net, a } = await setup()
    const postId = 'post_ours'
    await t.deps.db.insert(posts).values({
      id: postId,
      workspaceId: t.workspaceId,
      status: 'PUBLISHED',
      type: 'IMAGE',
      caption: 'published by us',
      publishedAt: at(-3_600_000),
    })
    await t.deps.db.insert(targets).values({
      id: 'target_ours',
      postId,
      workspaceId: t.workspaceId,
      accountId: a.id,
      platform: 'FEDERATED_NET',
      status: 'PUBLISHED',
      platformPostId: 'mine',
      publishedAt: at(-3_600_000),
    })
    net.data.posts.set(a.id, [post('theirs', 0.5), post('mine', 1)])
    net.data.comments.set('mine', [comment('on-mine')])
    expect((await syncAccount(t.deps, { accountId: a.id, now: NOW })).failed).toEqual([])
    const all = await t.deps.db.select().from(posts).where(eq(posts.workspaceId, t.workspaceId))
    expect(all.map((p) => [p.caption, p.source]).sort()).toEqual([
      ['post theirs', 'external'],
      ['published by us', 'service'],
    ])
    const onMine = await t.deps.db.select().from(inboxComments).where(eq(inboxComments.externalId, 'on-mine'))
    expect(onMine[0]).toMatchObject({ targetId: 'target_ours', postId })
  })

  it('a post gone from the network stops its comments being read, without failing the account', async () => {
    const { t, net, a, streams } = await setup()
    net.data.posts.set(a.id, [post('gone', 0.5), post('here', 1)])
    net.data.gone.add('gone')
    net.data.comments.set('here', [comment('c1')])
    const result = await syncAccount(t.deps, { accountId: a.id, now: NOW })
    expect(result.failed).toEqual([])
    expect((await streams())('comments')).toMatchObject({ failures: 0, lastError: null, lastSuccessAt: NOW })
    expect(await t.deps.db.select().from(inboxComments).where(eq(inboxComments.accountId, a.id))).toHaveLength(1)
    const goneCalls = () => net.server.calls('GET', '/posts/gone/comments').length
    expect(goneCalls()).toBe(1)

    const later = at(3_600_000)
    await t.deps.db.update(accountSync).set({ nextRunAt: later }).where(eq(accountSync.accountId, a.id))
    await t.deps.db.update(targetCommentSync).set({ nextRunAt: NOW }).where(eq(targetCommentSync.accountId, a.id))
    const [goneTarget] = await t.deps.db
      .select()
      .from(targets)
      .where(and(eq(targets.accountId, a.id), eq(targets.platformPostId, 'gone')))
    await t.deps.db
      .update(targetCommentSync)
      .set({ nextRunAt: at(40 * 86_400_000) })
      .where(eq(targetCommentSync.targetId, goneTarget!.id))
    expect((await syncAccount(t.deps, { accountId: a.id, now: later })).failed).toEqual([])
    expect(goneCalls()).toBe(1)
    expect(net.server.calls('GET', '/posts/here/comments').length).toBe(2)
  })
})
