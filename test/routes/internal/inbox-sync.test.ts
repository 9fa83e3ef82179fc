import { Client } from '@upstash/qstash'
import { and, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { accountSync, posts } from '../../../src/db/schema'
import { inboxSyncCallbackUrl, publishCallbackUrl } from '../../../src/domain/delivery-callbacks'
import { createQStashVerifier } from '../../../src/infra/publish-queue/qstash'
import { createQStashSyncQueue } from '../../../src/infra/sync-queue/qstash'
import type { SyncDue } from '../../../src/infra/sync-queue/types'
import type { NetworkPost } from '../../../src/networks/adapter'
import { syncDueAccounts } from '../../../src/services/inbox/sync'
import { SCHEDULED_JOBS } from '../../../src/services/scheduled-jobs'
import { inboxAdapter, startInboxNetwork } from '../../fakes/inbox-network'
import { account, fixedClock } from '../../support/fixtures'
import { signUpstashJwt, startLocalQStash, type LocalQStash } from '../../support/qstash-local'
import { createTestApp, type TestApp, type TestAppOptions } from '../../support/test-app'

const PUBLIC_URL = 'https://api.example.test'
const CALLBACK_URL = inboxSyncCallbackUrl(PUBLIC_URL)
const NOW = new Date('2026-11-21T10:00:00Z')
const KEYS = {
  currentSigningKey: `sig_current_${crypto.randomUUID()}`,
  nextSigningKey: `sig_next_${crypto.randomUUID()}`,
}

const post = (id: string): NetworkPost => ({
  platformPostId: id,
  permalink: `https://net.example/p/${id}`,
  text: `post ${id}`,
  publishedAt: new Date(NOW.getTime() - 3_600_000),
  mediaUrls: [],
  metrics: { likes: 1, comments: 0, shares: null, views: 9, saves: null, clicks: null, impressions: null, reach: null },
})

/** An app over the loopback inbox network; as the Worker is (verifier, PUBLIC_URL) unless `node`. */
async function setup(options: { node?: boolean; parts?: TestAppOptions['parts'] } = {}) {
  const net = await startInboxNetwork()
  const adapter = inboxAdapter()
  const t = await createTestApp({
    clock: fixedClock(NOW.toISOString()),
    networkRegistry: { adapterFor: () => adapter, baseUrlFor: () => net.server.url, fetch: globalThis.fetch },
    ...(options.node ? {} : { publicUrl: PUBLIC_URL, deliveryVerifier: createQStashVerifier(KEYS) }),
    ...(options.parts ? { parts: options.parts } : {}),
  })
  const imported = async () =>
    (
      await t.deps.db
        .select()
        .from(posts)
        .where(and(eq(posts.workspaceId, t.workspaceId), eq(posts.source, 'external')))
    ).map((p) => p.caption)
  return { t, net, imported }
}

function callback(t: TestApp, body: string, signature?: string) {
  return t.call('POST', '/internal/inbox-sync', {
    token: null,
    body,
    headers: {
      'content-type': 'application/json',
      ...(signature !== undefined ? { 'upstash-signature': signature } : {}),
    },
  })
}

const sign = (body: string, key = KEYS.currentSigningKey, url = CALLBACK_URL) => signUpstashJwt({ key, url, body })

describe('POST /internal/inbox-sync (QStash callback)', () => {
  it('does not exist where syncs run in process (Node: no verifier)', async () => {
    const { t } = await setup({ node: true })
    const body = JSON.stringify({ accountId: 'acc_unknown' })
    expect((await callback(t, body, await sign(body))).status).toBe(404)
  })

  it('refuses an unsigned or badly signed body; a signed one syncs that account, once per due run', async () => {
    const { t, net, imported } = await setup()
    const a = await account(t, 'FEDERATED_NET', 'callback')
    net.data.posts.set(a.id, [post('p1'), post('p2')])
    const body = JSON.stringify({ accountId: a.id })
    const refused = [
      undefined,
      'not-a-jwt',
      await sign(body, 'sig_attacker_key'),
      await sign(body, KEYS.currentSigningKey, publishCallbackUrl(PUBLIC_URL)),
      await sign(JSON.stringify({ accountId: 'acc_other' })),
    ]
    for (const signature of refused) {
      const res = await callback(t, body, signature)
      expect(res.status).toBe(401)
      expect((await res.json()).error.code).toBe('unauthorized')
    }
    expect(await imported()).toEqual([])

    // The next signing key is accepted too (a key rotation).
    const res = await callback(t, body, await sign(body, KEYS.nextSigningKey))
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ ran: true, failed: [] })
    expect((await imported()).sort()).toEqual(['post p1', 'post p2'])

    // A repeated delivery finds nothing due: nothing is read or written twice.
    net.data.posts.set(a.id, [post('p1'), post('p2'), post('p3')])
    const again = await callback(t, body, await sign(body))
    expect(again.status).toBe(200)
    expect(await imported()).toHaveLength(2)

    const bad = JSON.stringify({ account: a.id })
    expect((await callback(t, bad, await sign(bad))).status).toBe(400)
  })
})

describe('the inbox_sync job with a sync queue', () => {
  const job = SCHEDULED_JOBS.find((j) => j.name === 'inbox_sync')!

  async function queued() {
    const qstash: LocalQStash = await startLocalQStash(KEYS)
    // Held: nothing is delivered on its own (other files' accounts may be due on a shared database).
    qstash.hold()
    const syncQueue = createQStashSyncQueue({
      client: new Client({ baseUrl: qstash.url, token: qstash.token, devMode: false }),
      callbackUrl: CALLBACK_URL,
    })
    const app = await setup({
      parts: (parts) => ({
        ...parts,
        settings: { ...parts.settings, inboxSync: { accountsPerPass: 100_000 } },
        syncQueue,
      }),
    })
    return { ...app, qstash }
  }

  it('hands each due account to QStash once per pass instead of syncing it, and the callback syncs it', async () => {
    const { t, net, imported, qstash } = await queued()
    try {
      const a = await account(t, 'FEDERATED_NET', 'queued')
      net.data.posts.set(a.id, [post('q1')])
      await job.run(t.deps)
      await job.run(t.deps)
      expect(await imported()).toEqual([])
      const mine = qstash.publishes.filter((m) => m.body === JSON.stringify({ accountId: a.id }))
      expect(mine.map((m) => m.deduplicated)).toEqual([false, true])
      expect(mine[0]).toMatchObject({ destination: CALLBACK_URL })
      expect(mine[0]!.headers).toMatchObject({
        'upstash-deduplication-id': `${a.id}-p${NOW.getTime()}`,
        'upstash-retries': '0',
      })

      // QStash's delivery of it: signed by QStash's current key for the callback URL.
      const res = await callback(t, mine[0]!.body, await sign(mine[0]!.body))
      expect(await res.json()).toEqual({ ran: true, failed: [] })
      expect(await imported()).toEqual(['post q1'])
    } finally {
      await qstash.close()
    }
  })

  it('hands over only due accounts: not one another run holds, nor one backing off', async () => {
    const { t } = await setup()
    const recorded: SyncDue[] = []
    const deps = { ...t.deps, syncQueue: { enqueue: async (items: SyncDue[]) => void recorded.push(...items) } }
    const [leased, waiting, due] = [
      await account(t, 'FEDERATED_NET', 'leased'),
      await account(t, 'FEDERATED_NET', 'waiting'),
      await account(t, 'FEDERATED_NET', 'due'),
    ]
    await syncDueAccounts(deps, { now: NOW, workspaceId: t.workspaceId })
    expect(recorded.map((r) => r.accountId).sort()).toEqual([leased.id, waiting.id, due.id].sort())

    recorded.length = 0
    const hour = new Date(NOW.getTime() + 3_600_000)
    const rows = (id: string) => eq(accountSync.accountId, id)
    await t.deps.db.update(accountSync).set({ leaseUntil: hour, leaseHolder: 'other' }).where(rows(leased.id))
    await t.deps.db.update(accountSync).set({ backoffUntil: hour }).where(rows(waiting.id))
    const report = await syncDueAccounts(deps, { now: NOW, workspaceId: t.workspaceId })
    expect(recorded).toEqual([{ accountId: due.id, pass: NOW }])
    expect(report).toMatchObject({ queued: 1, accounts: 0 })
  })

  it('without a sync queue, a pass syncs its accounts in process as before', async () => {
    const { t, net, imported } = await setup({ node: true })
    const a = await account(t, 'FEDERATED_NET', 'inline')
    net.data.posts.set(a.id, [post('i1')])
    const report = await syncDueAccounts(t.deps, { now: NOW, workspaceId: t.workspaceId })
    expect(report).toMatchObject({ accounts: 1, queued: 0 })
    expect(await imported()).toEqual(['post i1'])
  })
})
