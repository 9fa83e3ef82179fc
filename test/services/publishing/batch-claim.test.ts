import { eq, inArray } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { posts, targets, webhookDeliveries, webhookEvents } from '../../../src/db/schema'
import { createRecordingPublishQueue } from '../../../src/infra/publish-queue/recording'
import { claimTargetBatch } from '../../../src/services/publishing/claim'
import { createToken } from '../../../src/services/tokens'
import { createWorkspace } from '../../../src/services/workspace/workspaces'
import { publishTargets } from '../../../src/services/publishing/publish-batch'
import { fakeNetwork } from '../../support/engine'
import { account, fixedClock } from '../../support/fixtures'
import { createTestApp, type TestApp } from '../../support/test-app'
import { addEndpoint, startReceiver, webhookApp } from '../../webhooks/support'

async function setup() {
  const clock = fixedClock('2026-11-21T10:00:00Z')
  const network = fakeNetwork({ delayMs: 10 })
  const queue = createRecordingPublishQueue()
  const t = await createTestApp({ clock, networkRegistry: network.registry, publishQueue: queue })
  return { t, clock, network, queue }
}

const createPost = async (t: TestApp, body: Record<string, unknown>) =>
  (
    await t.call('POST', '/v1/posts', { body: { type: 'IMAGE', mediaIds: [], caption: 'Hello', ...body } })
  ).json() as Promise<{ id: string; status: string }>

const statuses = async (t: TestApp, ids: string[]) =>
  Object.fromEntries(
    (
      await t.deps.db.select({ id: targets.id, status: targets.status }).from(targets).where(inArray(targets.id, ids))
    ).map((r) => [r.id, r.status]),
  )

const LEASE_SEC = 300

describe('batch claim of due targets', () => {
  it('never gives one target to two claimers running at once, and claims each due target once', async () => {
    const { t, clock, queue } = await setup()
    const accounts = [
      await account(t, 'MICROBLOG_NET'),
      await account(t, 'CHAT_NET'),
      await account(t, 'CHAT_NET', 'second'),
    ]
    for (let i = 0; i < 4; i++) {
      const created = await createPost(t, { accountIds: accounts.map((a) => a.id), action: 'now' })
      expect(created.status).toBe('PUBLISHING')
    }
    const deliveries = queue.deliveries.map((d) => ({ targetId: d.targetId, version: d.version }))
    expect(deliveries).toHaveLength(12)
    // Two claimers over the same deliveries (one in reverse order), a third over half of them.
    const results = await Promise.all([
      claimTargetBatch(t.deps.db, deliveries, clock.now(), LEASE_SEC, 'a/1'),
      claimTargetBatch(t.deps.db, [...deliveries].reverse(), clock.now(), LEASE_SEC, 'b/1'),
      claimTargetBatch(t.deps.db, deliveries.slice(0, 6), clock.now(), LEASE_SEC, 'c/1'),
    ])
    const claimedIds = results.flatMap((r) => r.claimed.flatMap((c) => (c ? [c.target.id] : [])))
    expect(new Set(claimedIds).size).toBe(claimedIds.length)
    expect(claimedIds.sort()).toEqual(deliveries.map((d) => d.targetId).sort())
    const rows = await t.deps.db
      .select()
      .from(targets)
      .where(
        inArray(
          targets.id,
          deliveries.map((d) => d.targetId),
        ),
      )
    for (const row of rows) {
      expect(row.status).toBe('PUBLISHING')
      expect(row.leaseUntil?.getTime()).toBe(clock.now().getTime() + LEASE_SEC * 1000)
      expect(['a/1', 'b/1', 'c/1']).toContain(row.leaseHolder)
      expect(row.attempts).toBe(1)
    }
  })

  it('publishes each target exactly once when the same batch is delivered to two runs at once', async () => {
    const { t, queue, network } = await setup()
    const accounts = [await account(t, 'MICROBLOG_NET'), await account(t, 'CHAT_NET')]
    const p = await createPost(t, { accountIds: accounts.map((a) => a.id), action: 'now' })
    const deliveries = [...queue.deliveries]
    const outcomes = await Promise.all([
      ...publishTargets(t.deps, deliveries),
      ...publishTargets(t.deps, deliveries),
      ...publishTargets(t.deps, [...deliveries, ...deliveries]),
    ])
    expect(outcomes.filter((o) => o === 'published')).toHaveLength(2)
    expect(outcomes.filter((o) => o === 'skipped')).toHaveLength(6)
    expect(network.calls()).toBe(2)
    const [row] = await t.deps.db.select().from(posts).where(eq(posts.id, p.id))
    expect(row!.status).toBe('PUBLISHED')
  })

  it('does not claim a target whose post changed version since the delivery was made', async () => {
    const { t, clock, queue } = await setup()
    const a = await account(t, 'MICROBLOG_NET')
    const p = await createPost(t, { accountIds: [a.id], action: 'now' })
    const [stale] = queue.deliveries
    // An edit since: the post is at a newer version, and the old delivery must do nothing.
    await t.deps.db
      .update(posts)
      .set({ version: stale!.version + 1 })
      .where(eq(posts.id, p.id))
    const batch = await claimTargetBatch(t.deps.db, [stale!], clock.now(), LEASE_SEC)
    expect(batch.claimed).toEqual([null])
    expect(batch.busy).toEqual([])
    expect(await statuses(t, [stale!.targetId])).toEqual({ [stale!.targetId]: 'PENDING' })
  })

  it('does not claim a target before its due time, and claims it once it is due', async () => {
    const { t, clock, queue } = await setup()
    const a = await account(t, 'MICROBLOG_NET')
    const due = new Date(clock.now().getTime() + 60 * 60 * 1000)
    const p = await createPost(t, { accountIds: [a.id], action: 'schedule', scheduledAt: due.toISOString() })
    expect(p.status).toBe('SCHEDULED')
    const [early] = queue.deliveries
    const batch = await claimTargetBatch(t.deps.db, [early!], clock.now(), LEASE_SEC)
    expect(batch.claimed).toEqual([null])
    expect(await statuses(t, [early!.targetId])).toEqual({ [early!.targetId]: 'PENDING' })
    const [before] = await t.deps.db.select().from(posts).where(eq(posts.id, p.id))
    expect(before!.status).toBe('SCHEDULED')

    const onTime = await claimTargetBatch(t.deps.db, [early!], due, LEASE_SEC)
    expect(onTime.claimed[0]?.target.id).toBe(early!.targetId)
    const [after] = await t.deps.db.select().from(posts).where(eq(posts.id, p.id))
    expect(after!.status).toBe('PUBLISHING')
  })
})

describe('results of one post written together', () => {
  it('writes the targets of a post that finish together in one transaction, with every event and outbox row', async () => {
    const network = fakeNetwork()
    // Every call waits until all four have their answer, then all answer at once.
    let started = 0
    let release: () => void = () => {}
    const together = new Promise<void>((r) => (release = r))
    const registry = {
      ...network.registry,
      // The webhook receiver listens on loopback.
      allowPrivateUrls: true,
      adapterFor: () => ({
        ...network.adapter,
        publish: async (input: Parameters<typeof network.adapter.publish>[0]) => {
          const answer = await network.adapter.publish(input)
          if (++started === 4) release()
          await together
          return answer
        },
      }),
    }
    const queue = createRecordingPublishQueue()
    const t = await webhookApp({ networkRegistry: registry, publishQueue: queue, dropTriggers: true })
    const receiver = await startReceiver()
    try {
      const endpoint = await addEndpoint(t, receiver.url, ['target.published', 'post.published'])
      // Neither a disabled endpoint nor another workspace's gets a delivery of these events.
      const disabled = await addEndpoint(t, receiver.url, ['target.published', 'post.published'])
      expect((await t.call('PATCH', `/v1/webhooks/${disabled.id}`, { body: { enabled: false } })).status).toBe(200)
      const other = await createWorkspace(t.deps.db, { name: 'Other workspace', planId: 'pro', timezone: 'UTC' })
      const { token: otherToken } = await createToken(t.deps.db, other.id, 'other')
      const foreign = await t.call('POST', '/v1/webhooks', {
        body: { url: receiver.url, events: ['target.published', 'post.published'] },
        token: otherToken,
      })
      expect(foreign.status).toBe(200)
      const accounts = [
        await account(t, 'MICROBLOG_NET'),
        await account(t, 'CHAT_NET'),
        await account(t, 'CHAT_NET', 'second'),
        await account(t, 'CHAT_NET', 'third'),
      ]
      const p = await createPost(t, { accountIds: accounts.map((a) => a.id), action: 'now' })
      let transactions = 0
      const db = new Proxy(t.deps.db, {
        get: (target, key, receiver) =>
          key === 'transaction'
            ? (...args: Parameters<typeof target.transaction>) => {
                transactions++
                return target.transaction(...args)
              }
            : Reflect.get(target, key, receiver),
      })
      const outcomes = await Promise.all(publishTargets({ ...t.deps, db }, [...queue.deliveries]))
      expect(outcomes).toEqual(['published', 'published', 'published', 'published'])
      // The claim, then the four answers together (the first waited for its siblings).
      expect(transactions).toBe(2)
      const [row] = await t.deps.db.select().from(posts).where(eq(posts.id, p.id))
      expect(row!.status).toBe('PUBLISHED')
      const events = (
        await t.deps.db.select().from(webhookEvents).where(eq(webhookEvents.workspaceId, t.workspaceId))
      ).filter((e) => e.type === 'target.published' || e.type === 'post.published')
      expect(events.map((e) => e.type).sort()).toEqual([...Array(4).fill('target.published'), 'post.published'].sort())
      const rows = await t.deps.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpoint.id))
      expect(rows.map((r) => r.eventId).sort()).toEqual(events.map((e) => e.id).sort())
      const everyDelivery = await t.deps.db.select().from(webhookDeliveries)
      expect(everyDelivery.filter((r) => r.eventId !== null && events.some((e) => e.id === r.eventId))).toHaveLength(5)
      expect(everyDelivery.map((r) => r.endpointId)).not.toContain(disabled.id)
      expect(everyDelivery.map((r) => r.endpointId)).not.toContain(((await foreign.json()) as { id: string }).id)
    } finally {
      await receiver.close()
    }
  })
})
