import { eq, inArray } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { claimDueDeliveries } from '../../src/db/queries/webhook-claims'
import { webhookAttempts, webhookDeliveries } from '../../src/db/schema'
import { webhookDeliverer } from '../../src/services/webhooks/deliver'
import { newOutbox, recordEvent } from '../../src/services/webhooks/outbox'
import type { TestApp } from '../support/test-app'
import { addEndpoint, movableClock, type Receiver, startReceiver, until, verify, webhookApp } from './support'

/** `count` events committed with no trigger (as a crash leaves them): due in the outbox. */
async function commitEvents(t: TestApp, count: number): Promise<void> {
  for (let i = 0; i < count; i++)
    await t.deps.db.transaction((tx) =>
      recordEvent(tx, newOutbox(), {
        workspaceId: t.workspaceId,
        type: 'post.deleted',
        data: { id: `post_${i}` },
        now: t.deps.clock.now(),
      }),
    )
}

const rowsOf = (t: TestApp) =>
  t.deps.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.workspaceId, t.workspaceId))

async function attemptsOf(t: TestApp, deliveryIds: string[]) {
  return t.deps.db.select().from(webhookAttempts).where(inArray(webhookAttempts.deliveryId, deliveryIds))
}

const ids = (r: Receiver) => r.received.map((m) => m.headers['webhook-id']!)

describe('webhook deliveries claimed in batches', () => {
  it('two workers draining one database never send the same delivery twice', async () => {
    const t = await webhookApp({ dropTriggers: true })
    const receiver = await startReceiver()
    const endpoint = await addEndpoint(t, receiver.url, ['post.deleted'])
    await commitEvents(t, 240)

    // Two claims at the same moment (on PostgreSQL, on two connections of the pool): disjoint sets.
    const now = t.deps.clock.now()
    const claim = (ms: number) =>
      claimDueDeliveries(t.deps.db, {
        now,
        leaseUntil: new Date(now.getTime() + ms),
        limit: 40,
        // The test database is shared with other files: only this workspace's deliveries.
        workspaceId: t.workspaceId,
      })
    const [first, second] = await Promise.all([claim(60_000), claim(60_001)])
    const claimed = [...first, ...second].map((d) => d.id)
    expect(claimed).toHaveLength(80)
    expect(new Set(claimed).size).toBe(80)

    // Two workers drain the rest at once, each in batches of 25.
    const drain = async () => {
      const worker = webhookDeliverer(t.deps)
      while ((await worker.deliverDue({ limit: 25, workspaceId: t.workspaceId })).length > 0);
    }
    await Promise.all([drain(), drain()])
    expect(receiver.received).toHaveLength(160)
    expect(new Set(ids(receiver)).size).toBe(160)
    for (const message of receiver.received) verify(endpoint.secret, message)
    const rows = await rowsOf(t)
    const delivered = rows.filter((r) => r.status === 'DELIVERED')
    expect(delivered).toHaveLength(160)
    expect(delivered.every((r) => r.attempts === 1)).toBe(true)
    // The 80 claimed by hand are leased, neither sent nor attempted.
    expect(rows.filter((r) => claimed.includes(r.id)).every((r) => r.status === 'PENDING' && r.attempts === 0)).toBe(
      true,
    )
    expect(
      await attemptsOf(
        t,
        delivered.map((r) => r.id),
      ),
    ).toHaveLength(160)
  })

  it('sends a delivery again once when its lease ran out mid-attempt, and records only the new claim', async () => {
    const clock = movableClock()
    const t = await webhookApp({ clock, dropTriggers: true })
    const receiver = await startReceiver()
    // The first answer comes late: meanwhile the lease (60 s) runs out and another worker takes the row.
    receiver.script.push({ status: 200, delayMs: 2000 })
    await addEndpoint(t, receiver.url, ['post.deleted'])
    await commitEvents(t, 1)

    const late = webhookDeliverer(t.deps).deliverDue({ limit: 10, workspaceId: t.workspaceId })
    await until(
      async () => receiver.received.length,
      (n) => n === 1,
    )
    clock.advance(61_000)
    expect(await webhookDeliverer(t.deps).deliverDue({ limit: 10, workspaceId: t.workspaceId })).toEqual(['delivered'])
    expect(await late).toEqual(['skipped'])
    expect(await webhookDeliverer(t.deps).deliverDue({ limit: 10, workspaceId: t.workspaceId })).toEqual([])

    expect(receiver.received).toHaveLength(2)
    expect(new Set(ids(receiver)).size).toBe(1)
    const [row] = await rowsOf(t)
    expect(row).toMatchObject({ status: 'DELIVERED', attempts: 1 })
    expect(await attemptsOf(t, [row!.id])).toHaveLength(1)
  })

  it('records every attempt of a batch; a failing, an unreachable or a slow endpoint holds up no other', async () => {
    const t = await webhookApp({ dropTriggers: true })
    const [good, failing, slow, down] = await Promise.all([
      startReceiver(),
      startReceiver(),
      startReceiver(),
      startReceiver(),
    ])
    await down.close()
    for (let i = 0; i < 10; i++) {
      failing.script.push(500)
      slow.script.push({ status: 200, delayMs: 1500 })
    }
    const endpoints = {
      good: await addEndpoint(t, good.url, ['post.deleted']),
      failing: await addEndpoint(t, failing.url, ['post.deleted']),
      slow: await addEndpoint(t, slow.url, ['post.deleted']),
      down: await addEndpoint(t, down.url, ['post.deleted']),
    }
    await commitEvents(t, 10)

    const batch = webhookDeliverer(t.deps).deliverDue({ limit: 100, workspaceId: t.workspaceId })
    // Every message to the good endpoint arrives while the slow one still holds its answers.
    await until(
      async () => good.received.length,
      (n) => n === 10,
    )
    expect(slow.received.length).toBeGreaterThan(0)
    const outcomes = await batch
    expect(outcomes).toHaveLength(40)
    expect(outcomes.filter((o) => o === 'delivered')).toHaveLength(20)
    expect(outcomes.filter((o) => o === 'retrying')).toHaveLength(20)

    const rows = await rowsOf(t)
    const attempts = await attemptsOf(
      t,
      rows.map((r) => r.id),
    )
    expect(attempts).toHaveLength(40)
    const of = (endpointId: string) => {
      const mine = new Set(rows.filter((r) => r.endpointId === endpointId).map((r) => r.id))
      return {
        statuses: [...new Set(rows.filter((r) => mine.has(r.id)).map((r) => `${r.status}/${r.attempts}`))],
        errors: [
          ...new Set(attempts.filter((a) => mine.has(a.deliveryId)).map((a) => `${a.statusCode}/${a.errorClass}`)),
        ],
      }
    }
    expect(of(endpoints.good.id)).toEqual({ statuses: ['DELIVERED/1'], errors: ['200/null'] })
    expect(of(endpoints.slow.id)).toEqual({ statuses: ['DELIVERED/1'], errors: ['200/null'] })
    expect(of(endpoints.failing.id)).toEqual({ statuses: ['PENDING/1'], errors: ['500/http_status'] })
    expect(of(endpoints.down.id)).toEqual({ statuses: ['PENDING/1'], errors: ['null/connection'] })
  })
})
