import { describe, expect, it } from 'vitest'
import { account } from '../support/fixtures'
import { addEndpoint, movableClock, startReceiver, until, webhookApp } from './support'

describe('webhook endpoints API', () => {
  it('creates, lists, reads, changes and deletes an endpoint; the secret is shown only at creation', async () => {
    const t = await webhookApp()
    const created = await (
      await t.call('POST', '/v1/webhooks', {
        body: { url: 'https://hooks.example.com/a', events: ['post.published', 'post.published'], description: 'ops' },
      })
    ).json()
    expect(created).toMatchObject({
      url: 'https://hooks.example.com/a',
      events: ['post.published'],
      description: 'ops',
      enabled: true,
    })
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    const got = await (await t.call('GET', `/v1/webhooks/${created.id}`)).json()
    expect(got.secret).toBeUndefined()
    const list = await (await t.call('GET', '/v1/webhooks')).json()
    expect(list.map((e: any) => e.id)).toEqual([created.id])
    expect(JSON.stringify(list)).not.toContain(created.secret.slice(6))
    const changed = await (
      await t.call('PATCH', `/v1/webhooks/${created.id}`, {
        body: { events: ['post.failed'], enabled: false, description: null },
      })
    ).json()
    expect(changed).toMatchObject({ events: ['post.failed'], enabled: false, description: null })
    expect((await t.call('DELETE', `/v1/webhooks/${created.id}`)).status).toBe(200)
    expect((await t.call('GET', `/v1/webhooks/${created.id}`)).status).toBe(404)
  })

  it('refuses unknown event types and an empty list with 400 naming the field', async () => {
    const t = await webhookApp()
    const res = await t.call('POST', '/v1/webhooks', { body: { url: 'https://hooks.example.com', events: ['nope'] } })
    expect(res.status).toBe(400)
    expect((await res.json()).error.details[0].path).toMatch(/^events/)
    expect(
      (await t.call('POST', '/v1/webhooks', { body: { url: 'https://hooks.example.com', events: [] } })).status,
    ).toBe(400)
  })

  it("caps the endpoints at the plan's limit with 403 plan_limit_reached", async () => {
    const t = await webhookApp({ plan: 'free' })
    await addEndpoint(t, 'https://hooks.example.com/1', ['post.failed'])
    await addEndpoint(t, 'https://hooks.example.com/2', ['post.failed'])
    const res = await t.call('POST', '/v1/webhooks', {
      body: { url: 'https://hooks.example.com/3', events: ['post.failed'] },
    })
    expect(res.status).toBe(403)
    const body = await res.json()
    expect(body.error).toMatchObject({ code: 'plan_limit_reached' })
    expect(body.error.details[0]).toMatchObject({ path: 'webhookEndpoints', limit: 2, actual: 3 })
  })

  it('refuses http and private, loopback, link-local and metadata addresses (no ALLOW_PRIVATE_URLS)', async () => {
    const t = await webhookApp({ allowPrivateUrls: false })
    for (const url of [
      'http://hooks.example.com/x',
      'https://127.0.0.1/x',
      'https://localhost/x',
      'https://10.1.2.3/x',
      'https://192.168.0.10/x',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/x',
      'ftp://hooks.example.com/x',
    ]) {
      const res = await t.call('POST', '/v1/webhooks', { body: { url, events: ['post.failed'] } })
      expect(res.status, url).toBe(400)
      const body = await res.json()
      expect(body.error.code).toBe('invalid_request')
      expect(body.error.details[0].path).toBe('url')
    }
    // A changed url is checked the same way.
    const created = await addEndpoint(t, 'https://93.184.215.14/hooks', ['post.failed'])
    const moved = await t.call('PATCH', `/v1/webhooks/${created.id}`, { body: { url: 'https://127.0.0.2/x' } })
    expect(moved.status).toBe(400)
    expect((await (await t.call('GET', `/v1/webhooks/${created.id}`)).json()).url).toBe('https://93.184.215.14/hooks')
  })

  it('refuses a name that resolves to a private address, and never sends to one', async () => {
    let flipped = false
    const t = await webhookApp({
      allowPrivateUrls: false,
      resolveHost: async (host) =>
        host === 'inside.example.com' || (flipped && host === 'flip.example.com') ? ['10.0.0.8'] : ['93.184.215.14'],
    })
    const res = await t.call('POST', '/v1/webhooks', {
      body: { url: 'https://inside.example.com/hook', events: ['post.failed'] },
    })
    expect(res.status).toBe(400)
    expect((await res.json()).error.message).toContain('10.0.0.8')
    // Public when added, private when sent to (DNS changed): the attempt is refused before connecting.
    const endpoint = await addEndpoint(t, 'https://flip.example.com/hook', ['post.failed'])
    flipped = true
    const ping = await (await t.call('POST', `/v1/webhooks/${endpoint.id}/test`)).json()
    expect(ping.status).toBe('PENDING')
    expect(ping.attempts).toMatchObject([{ attempt: 1, statusCode: null, errorClass: 'refused_address' }])
  })

  it('pages the delivery log and filters it by status and event type; a foreign cursor is 400', async () => {
    const t = await webhookApp({ clock: movableClock() })
    const receiver = await startReceiver()
    const endpoint = await addEndpoint(t, receiver.url, ['post.deleted'])
    for (let i = 0; i < 3; i++) await t.call('POST', `/v1/webhooks/${endpoint.id}/test`)
    const a = (await account(t, 'MICROBLOG_NET')).id
    const draft = await (
      await t.call('POST', '/v1/posts', {
        body: { type: 'IMAGE', accountIds: [a], mediaIds: [], action: 'draft', caption: 'x' },
      })
    ).json()
    await t.call('DELETE', `/v1/posts/${draft.id}`)
    await until(
      async () => receiver.received.length,
      (n) => n === 4,
    )
    const first = await (await t.call('GET', `/v1/webhooks/${endpoint.id}/deliveries?limit=2`)).json()
    expect(first.data).toHaveLength(2)
    expect(first.nextCursor).toBe(first.data[1].id)
    const second = await (
      await t.call('GET', `/v1/webhooks/${endpoint.id}/deliveries?limit=2&cursor=${first.nextCursor}`)
    ).json()
    expect(second.data).toHaveLength(2)
    expect(second.nextCursor).toBeNull()
    const ids = [...first.data, ...second.data].map((d: any) => d.id)
    expect(new Set(ids).size).toBe(4)
    const pings = await (await t.call('GET', `/v1/webhooks/${endpoint.id}/deliveries?eventType=ping`)).json()
    expect(pings.data).toHaveLength(3)
    const delivered = await (await t.call('GET', `/v1/webhooks/${endpoint.id}/deliveries?status=DELIVERED`)).json()
    await until(
      async () => (await (await t.call('GET', `/v1/webhooks/${endpoint.id}/deliveries?status=DELIVERED`)).json()).data,
      (d) => d.length === 4,
    )
    expect(delivered.data.every((d: any) => d.status === 'DELIVERED')).toBe(true)
    expect(
      (await t.call('GET', `/v1/webhooks/${endpoint.id}/deliveries?status=PENDING`).then((r) => r.json())).data,
    ).toEqual([])
    const other = await webhookApp()
    const foreign = await addEndpoint(other, receiver.url, ['post.deleted'])
    await other.call('POST', `/v1/webhooks/${foreign.id}/test`)
    const foreignDelivery = (await (await other.call('GET', `/v1/webhooks/${foreign.id}/deliveries`)).json()).data[0]
    const bad = await t.call('GET', `/v1/webhooks/${endpoint.id}/deliveries?cursor=${foreignDelivery.id}`)
    expect(bad.status).toBe(400)
    const events = await (await t.call('GET', '/v1/events?limit=2')).json()
    expect(events.data).toHaveLength(2)
    expect(events.nextCursor).toEqual(expect.any(String))
  })

  it('keeps every route to its own workspace: ids of another are 404, in a path or a body', async () => {
    const mine = await webhookApp({ clock: movableClock() })
    const theirs = await webhookApp({ clock: movableClock() })
    const receiver = await startReceiver()
    const foreign = await addEndpoint(theirs, receiver.url, ['post.deleted'])
    const own = await addEndpoint(mine, receiver.url, ['post.deleted'])
    await theirs.call('POST', `/v1/webhooks/${foreign.id}/test`)
    const foreignEvent = (await (await theirs.call('GET', '/v1/events')).json()).data[0]
    const before = receiver.received.length

    const calls: Array<[string, string, unknown?]> = [
      ['GET', `/v1/webhooks/${foreign.id}`],
      ['PATCH', `/v1/webhooks/${foreign.id}`, { enabled: false }],
      ['DELETE', `/v1/webhooks/${foreign.id}`],
      ['POST', `/v1/webhooks/${foreign.id}/rotate-secret`],
      ['POST', `/v1/webhooks/${foreign.id}/test`],
      ['GET', `/v1/webhooks/${foreign.id}/deliveries`],
      ['POST', `/v1/events/${foreignEvent.id}/replay`, {}],
    ]
    for (const [method, path, body] of calls) {
      const res = await mine.call(method, path, body === undefined ? {} : { body })
      expect(res.status, `${method} ${path}`).toBe(404)
      expect((await res.json()).error.code).toBe('not_found')
    }
    expect(await (await mine.call('GET', '/v1/webhooks')).json()).toHaveLength(1)
    expect((await (await mine.call('GET', '/v1/events')).json()).data.map((e: any) => e.id)).not.toContain(
      foreignEvent.id,
    )
    // My event replayed to their endpoint: refused, and nothing is sent.
    await mine.call('POST', `/v1/webhooks/${own.id}/test`)
    const myEvent = (await (await mine.call('GET', '/v1/events')).json()).data[0]
    const res = await mine.call('POST', `/v1/events/${myEvent.id}/replay`, { body: { endpointId: foreign.id } })
    expect(res.status).toBe(404)
    expect((await res.json()).error.details[0].path).toBe('endpointId')
    const theirEndpoint = await (await theirs.call('GET', `/v1/webhooks/${foreign.id}`)).json()
    expect(theirEndpoint.enabled).toBe(true)
    expect(receiver.received.length).toBe(before + 1)
  })

  it('answers the Worker callback route only where deliveries arrive over HTTP, and only signed', async () => {
    const node = await webhookApp()
    expect((await node.app.request('/internal/webhook-delivery', { method: 'POST', body: '{}' })).status).toBe(404)
    const worker = await webhookApp({ deliveryVerifier: { verify: async (sig) => sig === 'good' } })
    const unsigned = await worker.app.request('/internal/webhook-delivery', {
      method: 'POST',
      body: JSON.stringify({ deliveryId: 'whd_x' }),
    })
    expect(unsigned.status).toBe(401)
    const signed = await worker.app.request('/internal/webhook-delivery', {
      method: 'POST',
      headers: { 'upstash-signature': 'good' },
      body: JSON.stringify({ deliveryId: 'whd_unknown' }),
    })
    expect(signed.status).toBe(200)
    expect(await signed.json()).toEqual({ outcome: 'skipped' })
  })
})
