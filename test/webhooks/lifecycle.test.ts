import { describe, expect, it } from 'vitest'
import { sweepWebhooks } from '../../src/services/webhooks/deliver'
import { account } from '../support/fixtures'
import type { TestApp } from '../support/test-app'
import { addEndpoint, movableClock, startReceiver, until, verifySignatureOnly, webhookApp } from './support'

async function draft(t: TestApp, accountId: string) {
  const res = await t.call('POST', '/v1/posts', {
    body: { type: 'IMAGE', accountIds: [accountId], mediaIds: [], action: 'draft', caption: 'draft' },
  })
  return (await res.json()).id as string
}

const deliveries = async (t: TestApp, endpointId: string, query = '') =>
  (await (await t.call('GET', `/v1/webhooks/${endpointId}/deliveries${query}`)).json()).data as any[]

describe('webhook endpoints and events over time', () => {
  it('disables an endpoint that failed every attempt for five days, with an endpoint.disabled entry', async () => {
    const clock = movableClock()
    const t = await webhookApp({ clock, webhooks: { maxAttempts: 1 } })
    const receiver = await startReceiver()
    const watcher = await startReceiver()
    for (let i = 0; i < 5; i++) receiver.script.push(500)
    const endpoint = await addEndpoint(t, receiver.url, ['post.deleted'])
    const watching = await addEndpoint(t, watcher.url, ['endpoint.disabled'])
    const accountId = (await account(t, 'MICROBLOG_NET')).id
    await t.call('DELETE', `/v1/posts/${await draft(t, accountId)}`)
    await until(
      () => deliveries(t, endpoint.id),
      (d) => d[0]?.status === 'FAILED',
    )
    clock.advance(5 * 24 * 3_600_000 + 1_000)
    await t.call('DELETE', `/v1/posts/${await draft(t, accountId)}`)
    await sweepWebhooks(t.deps, { workspaceId: t.workspaceId })
    // The queue runs the attempt by the app's clock too, so the sweep may have found it taken: wait for the outcome.
    const got = await until(
      async () => (await t.call('GET', `/v1/webhooks/${endpoint.id}`)).json(),
      (e) => e.enabled === false,
    )
    expect(got.enabled).toBe(false)
    expect(got.disabledReason).toMatch(/failed/)
    const log = await deliveries(t, endpoint.id, '?eventType=endpoint.disabled')
    expect(log).toHaveLength(1)
    expect(log[0].status).toBe('FAILED')
    await sweepWebhooks(t.deps, { workspaceId: t.workspaceId })
    await until(
      async () => watcher.received.length,
      (n) => n > 0,
    )
    expect(watcher.received.map((m) => m.json.type)).toEqual(['endpoint.disabled'])
    expect(watcher.received[0]!.json.data.id).toBe(endpoint.id)
    verifySignatureOnly(watching.secret, watcher.received[0]!)
    // Enabled again, it is sent to again.
    const enabled = await (await t.call('PATCH', `/v1/webhooks/${endpoint.id}`, { body: { enabled: true } })).json()
    expect(enabled).toMatchObject({ enabled: true, disabledReason: null })
  })

  it('keeps events 30 days: listed and replayable until then, purged by the sweep after', async () => {
    const clock = movableClock()
    const t = await webhookApp({ clock })
    const receiver = await startReceiver()
    await addEndpoint(t, receiver.url, ['post.deleted'])
    await t.call('DELETE', `/v1/posts/${await draft(t, (await account(t, 'MICROBLOG_NET')).id)}`)
    const [event] = (await (await t.call('GET', '/v1/events?type=post.deleted')).json()).data
    clock.advance(29 * 86_400_000)
    expect((await (await t.call('GET', '/v1/events?type=post.deleted')).json()).data).toHaveLength(1)
    clock.advance(2 * 86_400_000)
    expect((await (await t.call('GET', '/v1/events?type=post.deleted')).json()).data).toEqual([])
    expect((await t.call('POST', `/v1/events/${event.id}/replay`, { body: {} })).status).toBe(404)
    const report = await sweepWebhooks(t.deps, { workspaceId: t.workspaceId })
    expect(report.purged).toBeGreaterThanOrEqual(2) // account.connected and post.deleted
    clock.advance(-31 * 86_400_000)
    expect((await (await t.call('GET', '/v1/events')).json()).data).toEqual([])
  })

  it('counts a redirect as a failure without following it, and gives up on a receiver slower than the limit', async () => {
    const t = await webhookApp({ clock: movableClock(), webhooks: { timeoutMs: 200, maxAttempts: 1 } })
    const receiver = await startReceiver()
    const elsewhere = await startReceiver()
    receiver.script.push(
      { status: 302, headers: { location: elsewhere.url } },
      { status: 200, delayMs: 1_000 },
      { status: 200, body: 'x'.repeat(5_000) },
    )
    const endpoint = await addEndpoint(t, receiver.url, ['post.deleted'])
    const test = async () => (await t.call('POST', `/v1/webhooks/${endpoint.id}/test`)).json()
    const redirected = await test()
    expect(redirected.attempts).toMatchObject([{ statusCode: 302, errorClass: 'redirect' }])
    expect(elsewhere.received).toHaveLength(0)
    const slow = await test()
    expect(slow.status).toBe('FAILED')
    expect(slow.attempts).toMatchObject([{ statusCode: null, errorClass: 'timeout' }])
    expect(slow.attempts[0].durationMs).toBeLessThan(1_000)
    const long = await test()
    expect(long.status).toBe('DELIVERED')
    expect(long.attempts[0].responseBody).toBe('x'.repeat(1_024))
  })
})
