import { describe, expect, it } from 'vitest'
import { addSandboxAccount, expireAccount } from '../../src/services/accounts/accounts'
import { sweepWebhooks } from '../../src/services/webhooks/deliver'
import { newOutbox, sendOutbox } from '../../src/services/webhooks/outbox'
import { account } from '../support/fixtures'
import { runDue } from '../support/engine'
import type { TestApp } from '../support/test-app'
import { addEndpoint, movableClock, startReceiver, until, verify, webhookApp } from './support'

const ALL = [
  'target.published',
  'target.failed',
  'post.published',
  'post.failed',
  'post.deleted',
  'account.connected',
  'account.expired',
  'account.disconnected',
  'endpoint.disabled',
  'comment.received',
  'mention.received',
]

async function publishNow(t: TestApp, accountId: string) {
  const res = await t.call('POST', '/v1/posts', {
    body: { type: 'IMAGE', accountIds: [accountId], mediaIds: [], action: 'now', caption: 'hello' },
  })
  expect(res.status).toBe(200)
  const post = await res.json()
  await runDue(t, t.publishQueue)
  return post.id as string
}

async function draft(t: TestApp, accountId: string) {
  const res = await t.call('POST', '/v1/posts', {
    body: { type: 'IMAGE', accountIds: [accountId], mediaIds: [], action: 'draft', caption: 'draft' },
  })
  return (await res.json()).id as string
}

const deliveries = async (t: TestApp, endpointId: string, query = '') =>
  (await (await t.call('GET', `/v1/webhooks/${endpointId}/deliveries${query}`)).json()).data as any[]

describe('webhook deliveries to a loopback receiver', () => {
  it('sends every event type the service produces, each signed and verified by standardwebhooks', async () => {
    const t = await webhookApp({ clock: movableClock() })
    const receiver = await startReceiver()
    const endpoint = await addEndpoint(t, receiver.url, ALL)
    expect(endpoint.secret).toMatch(/^whsec_/)

    const ok = await account(t, 'MICROBLOG_NET')
    const bad = await addSandboxAccount(t.deps.db, t.deps.cipher, {
      workspaceId: t.workspaceId,
      platform: 'MICROBLOG_NET',
      username: 'always-fails',
      failMode: 'always',
    })
    // account.connected is written by the CLI's process; the sweep sends it.
    await sweepWebhooks(t.deps, { workspaceId: t.workspaceId })
    const published = await publishNow(t, ok.id)
    await publishNow(t, bad.id)
    expect((await t.call('DELETE', `/v1/posts/${published}`)).status).toBe(200)
    const outbox = newOutbox()
    await t.deps.db.transaction((tx) =>
      expireAccount(tx, outbox, ok.id, 'token expired: reconnect', t.deps.clock.now()),
    )
    await sendOutbox(t.deps, outbox)
    expect((await t.call('POST', `/v1/webhooks/${endpoint.id}/test`)).status).toBe(200)

    const expected = [
      'account.connected',
      'target.published',
      'post.published',
      'target.failed',
      'post.failed',
      'post.deleted',
      'account.expired',
      'ping',
    ]
    await until(
      async () => receiver.received.length,
      (n) => n >= expected.length + 1,
    )
    const types = receiver.received.map((m) => m.json.type)
    for (const type of expected) expect(types).toContain(type)
    for (const message of receiver.received) {
      const verified = verify(endpoint.secret, message) as any
      expect(verified.id).toBe(message.headers['webhook-id'])
      expect(verified.workspaceId).toBe(t.workspaceId)
      expect(Object.keys(verified).sort()).toEqual(['createdAt', 'data', 'id', 'type', 'workspaceId'])
    }
    const byType = (type: string) => receiver.received.filter((m) => m.json.type === type).map((m) => m.json.data)
    const [targetOk] = byType('target.published')
    expect(targetOk.postId).toBe(published)
    expect(targetOk.target.permalink).toMatch(/^http/)
    expect(targetOk.target.platformPostId).toEqual(expect.any(String))
    const [targetBad] = byType('target.failed')
    expect(targetBad.target.error).toMatchObject({ code: 'rejected', retryable: false })
    expect(byType('post.published')[0]).toMatchObject({ id: published, status: 'PUBLISHED' })
    expect(byType('post.failed')[0].status).toBe('FAILED')
    expect(byType('post.deleted')[0]).toMatchObject({ id: published, status: 'PUBLISHED' })
    expect(byType('account.expired')[0]).toMatchObject({ id: ok.id, status: 'EXPIRED', reason: expect.any(String) })
    expect(
      byType('account.connected')
        .map((a) => a.id)
        .sort(),
    ).toEqual([ok.id, bad.id].sort())
    // Wrong secret: the library refuses it.
    expect(() => verify(`whsec_${Buffer.alloc(32, 7).toString('base64')}`, receiver.received[0]!)).toThrow()
  })

  it('retries a 500 and marks the delivery DELIVERED after the second attempt', async () => {
    const t = await webhookApp({ clock: movableClock() })
    const receiver = await startReceiver()
    receiver.script.push(500)
    const endpoint = await addEndpoint(t, receiver.url, ['post.deleted'])
    const postId = await draft(t, (await account(t, 'MICROBLOG_NET')).id)
    await t.call('DELETE', `/v1/posts/${postId}`)
    const [delivery] = await until(
      () => deliveries(t, endpoint.id),
      (d) => d[0]?.status === 'DELIVERED',
    )
    expect(delivery.status).toBe('DELIVERED')
    expect(delivery.attempts.map((a: any) => [a.statusCode, a.errorClass])).toEqual([
      [500, 'http_status'],
      [200, null],
    ])
    expect(delivery.attempts[0].responseBody).toBe('receiver says no')
    expect(receiver.received).toHaveLength(2)
    expect(receiver.received[0]!.headers['webhook-id']).toBe(receiver.received[1]!.headers['webhook-id'])
    for (const m of receiver.received) verify(endpoint.secret, m)
  })

  it("waits as long as a 429's Retry-After asks", async () => {
    const clock = movableClock()
    const t = await webhookApp({ clock })
    const receiver = await startReceiver()
    receiver.script.push({ status: 429, headers: { 'retry-after': '3600' } })
    const endpoint = await addEndpoint(t, receiver.url, ['post.deleted'])
    await t.call('DELETE', `/v1/posts/${await draft(t, (await account(t, 'MICROBLOG_NET')).id)}`)
    await until(
      () => deliveries(t, endpoint.id),
      (d) => d[0]?.attempts.length === 1,
    )
    // Read again: the log reads its rows, then their attempts, so the read that first saw the attempt
    // may hold the row as it was before the attempt's transaction committed.
    const [delivery] = await deliveries(t, endpoint.id)
    expect(delivery.status).toBe('PENDING')
    const waitMs = new Date(delivery.nextAttemptAt).getTime() - new Date(delivery.attempts[0].createdAt).getTime()
    expect(waitMs).toBe(3_600_000)
  })

  it('sends what a crash between commit and send left, from the sweep of the restarted app', async () => {
    const receiver = await startReceiver()
    await receiver.close()
    // The first process commits and dies before handing anything to its queue.
    const before = await webhookApp({ dropTriggers: true })
    const endpoint = await addEndpoint(before, receiver.url, ['post.deleted'])
    // Its queue is gone (nothing was handed to it), so nothing can send in the background.
    await before.call('DELETE', `/v1/posts/${await draft(before, (await account(before, 'MICROBLOG_NET')).id)}`)
    expect((await deliveries(before, endpoint.id))[0]).toMatchObject({ status: 'PENDING', attempts: [] })

    // Restarted (new deps over the same database and key); the receiver is still down for the first attempt.
    const after = await webhookApp({ parts: (p) => ({ ...p, cipher: before.deps.cipher }) })
    expect(await sweepWebhooks(after.deps, { workspaceId: before.workspaceId })).toMatchObject({
      attempted: 1,
      delivered: 0,
    })
    const [failed] = await deliveries(before, endpoint.id)
    expect(failed.attempts.map((a: any) => a.errorClass)).toEqual(['connection'])
    await receiver.reopen()
    const [delivered] = await until(
      async () => {
        await sweepWebhooks(after.deps, { workspaceId: before.workspaceId })
        return deliveries(before, endpoint.id)
      },
      (d) => d[0]?.status === 'DELIVERED',
    )
    expect(delivered.status).toBe('DELIVERED')
    expect(receiver.received).toHaveLength(1)
    verify(endpoint.secret, receiver.received[0]!)
  })

  it('signs with both secrets for 24 hours after a rotation, and each one verifies', async () => {
    const clock = movableClock()
    const t = await webhookApp({ clock })
    const receiver = await startReceiver()
    const endpoint = await addEndpoint(t, receiver.url, ['post.deleted'])
    const rotated = await (await t.call('POST', `/v1/webhooks/${endpoint.id}/rotate-secret`)).json()
    expect(rotated.secret).toMatch(/^whsec_/)
    expect(rotated.secret).not.toBe(endpoint.secret)
    expect(rotated.previousSecretExpiresAt).toEqual(expect.any(String))
    const ping = await (await t.call('POST', `/v1/webhooks/${endpoint.id}/test`)).json()
    expect(ping.status).toBe('DELIVERED')
    const message = receiver.received[0]!
    expect(message.headers['webhook-signature']!.split(' ')).toHaveLength(2)
    verify(rotated.secret, message)
    verify(endpoint.secret, message)

    clock.advance(24 * 3_600_000 + 1_000)
    await t.call('POST', `/v1/webhooks/${endpoint.id}/test`)
    expect(receiver.received[1]!.headers['webhook-signature']!.split(' ')).toHaveLength(1)
    expect(
      (await (await t.call('GET', `/v1/webhooks/${endpoint.id}`)).json().then((e: any) => e)).previousSecretExpiresAt,
    ).toBeNull()
  })

  it('replays an event, unchanged, to every subscribed endpoint or to one named', async () => {
    const t = await webhookApp({ clock: movableClock() })
    const receiver = await startReceiver()
    const other = await startReceiver()
    const endpoint = await addEndpoint(t, receiver.url, ['post.deleted'])
    const second = await addEndpoint(t, other.url, ['post.published'])
    await t.call('DELETE', `/v1/posts/${await draft(t, (await account(t, 'MICROBLOG_NET')).id)}`)
    await until(
      async () => receiver.received.length,
      (n) => n === 1,
    )
    const events = (await (await t.call('GET', '/v1/events?type=post.deleted')).json()).data
    expect(events).toHaveLength(1)
    const eventId = events[0].id
    const all = await (await t.call('POST', `/v1/events/${eventId}/replay`, { body: {} })).json()
    expect(all.deliveryIds).toHaveLength(1)
    const one = await (await t.call('POST', `/v1/events/${eventId}/replay`, { body: { endpointId: second.id } })).json()
    expect(one.deliveryIds).toHaveLength(1)
    await until(
      async () => receiver.received.length + other.received.length,
      (n) => n === 3,
    )
    expect(receiver.received[1]!.body).toBe(receiver.received[0]!.body)
    expect(receiver.received[1]!.headers['webhook-id']).toBe(eventId)
    verify(endpoint.secret, receiver.received[1]!)
    verify(second.secret, other.received[0]!)
    expect(other.received[0]!.json.id).toBe(eventId)
  })

  it('sends nothing for a post change that was rolled back', async () => {
    let failCommits = false
    const t = await webhookApp({
      clock: movableClock(),
      parts: (p) => ({
        ...p,
        db: new Proxy(p.db, {
          get(target, prop, receiver) {
            if (prop !== 'transaction') return Reflect.get(target, prop, receiver)
            return (fn: (tx: unknown) => Promise<unknown>) =>
              target.transaction(async (tx) => {
                const result = await fn(tx)
                if (failCommits) throw new Error('the commit failed')
                return result
              })
          },
        }),
      }),
    })
    const receiver = await startReceiver()
    const endpoint = await addEndpoint(t, receiver.url, ['post.deleted'])
    const postId = await draft(t, (await account(t, 'MICROBLOG_NET')).id)
    failCommits = true
    expect((await t.call('DELETE', `/v1/posts/${postId}`)).status).toBe(500)
    failCommits = false
    expect((await t.call('GET', `/v1/posts/${postId}`)).status).toBe(200)
    await sweepWebhooks(t.deps, { workspaceId: t.workspaceId })
    // No delivery is in the outbox, so none can be sent later either.
    expect(await deliveries(t, endpoint.id)).toEqual([])
    expect(receiver.received).toHaveLength(0)
    expect((await (await t.call('GET', '/v1/events?type=post.deleted')).json()).data).toEqual([])
  })
})
