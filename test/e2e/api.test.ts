/**
 * The REST API of the started product, over HTTP only: media uploaded to the local store and cut into
 * variants, a post published now to SANDBOX accounts, bulk CSV, analytics, and webhooks delivered to a
 * receiver on loopback and checked with the Standard Webhooks library.
 */
import { imageSize } from 'image-size'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { jpeg, paint } from '../support/media'
import { apiClient, loggedErrors } from './support/product'
import { type Receiver, startReceiver } from './support/receiver'

const product = inject('product')
const api = apiClient(product.baseUrl, product.token!)
/** The demo workspace's SANDBOX account of each network: platform -> id. */
let accounts: Record<string, string>
let receiver: Receiver
let webhook: { id: string; secret: string }
/** The feed_portrait variant made below, used by the post. */
let portraitId: string

beforeAll(async () => {
  const listed = await api('GET', '/v1/accounts')
  expect(listed.status).toBe(200)
  accounts = Object.fromEntries(listed.body.map((a: { platform: string; id: string }) => [a.platform, a.id]))
  receiver = await startReceiver()
})
afterAll(() => receiver?.close())

/** The messages of `type` the receiver got, each verified with the endpoint's secret (throws when one is not). */
function verifiedMessages(type: string): any[] {
  return receiver.received
    .map((m) => new Webhook(webhook.secret).verify(m.body, m.headers) as { type: string })
    .filter((m) => m.type === type)
}

describe('npm start, over HTTP', () => {
  it('answers /v1/me, the platforms, the queue slots and its OpenAPI document', async () => {
    // DATABASE_URL in the environment puts the started product on that PostgreSQL.
    expect(product.database).toBe(process.env.DATABASE_URL ? 'postgres' : 'pglite')
    const me = await api('GET', '/v1/me')
    expect(me.status).toBe(200)
    expect(me.body.plan.id).toBe('agency')
    expect(Object.keys(accounts).length).toBeGreaterThanOrEqual(12)
    expect((await api('GET', '/v1/platforms')).status).toBe(200)
    expect((await api('GET', '/v1/queue-slots')).status).toBe(200)
    const openapi = await fetch(`${product.baseUrl}/v1/openapi.json`)
    expect(openapi.status).toBe(200)
    expect(((await openapi.json()) as { openapi: string }).openapi).toMatch(/^3\.1/)
  })

  it('subscribes a webhook on loopback and delivers a ping signed the Standard Webhooks way', async () => {
    const created = await api('POST', '/v1/webhooks', {
      url: receiver.url,
      events: ['post.published', 'target.published', 'account.connected'],
    })
    expect(created.status, JSON.stringify(created.body)).toBe(200)
    webhook = { id: created.body.id, secret: created.body.secret }
    expect(webhook.secret).toMatch(/^whsec_/)
    const ping = await api('POST', `/v1/webhooks/${webhook.id}/test`)
    expect(ping.status).toBe(200)
    expect(ping.body).toMatchObject({ eventType: 'ping', status: 'DELIVERED' })
    expect(ping.body.attempts[0]).toMatchObject({ statusCode: 204, errorClass: null })
    expect(verifiedMessages('ping')).toHaveLength(1)
    // A message whose body was altered on the way does not verify.
    const [message] = receiver.received
    expect(() => new Webhook(webhook.secret).verify(`${message!.body} `, message!.headers)).toThrow()
  })

  it('uploads an image straight to the local store, registers it, and cuts its four variants', async () => {
    const bytes = await jpeg(paint(800, 600, (x, y) => [x % 256, y % 256, 120]))
    const ticket = await api('POST', '/v1/media/uploads', { filename: 'harbour.jpg', contentType: 'image/jpeg' })
    expect(ticket.status).toBe(200)
    expect(ticket.body.uploadUrl.startsWith(product.mediaStore.replace(/\/media$/, ''))).toBe(true)
    const put = await fetch(ticket.body.uploadUrl, {
      method: 'PUT',
      headers: ticket.body.headers,
      body: new Blob([bytes.slice()]),
    })
    expect(put.status).toBe(200)
    const asset = await api('POST', '/v1/media', {
      type: 'IMAGE',
      storageKey: ticket.body.storageKey,
      url: ticket.body.url,
      altText: 'A harbour at dusk',
    })
    expect(asset.status, JSON.stringify(asset.body)).toBe(200)
    expect(asset.body).toMatchObject({ width: 800, height: 600, mimeType: 'image/jpeg' })
    expect(new Uint8Array(await (await fetch(asset.body.url)).arrayBuffer())).toEqual(bytes)

    const formats = ['feed_portrait', 'feed_square', 'landscape', 'story']
    const cut = await api('POST', `/v1/media/${asset.body.id}/variants`, { formats })
    expect(cut.status, JSON.stringify(cut.body)).toBe(200)
    expect(cut.body.variants.map((v: { format: string }) => v.format)).toEqual(formats)
    for (const variant of cut.body.variants) {
      const file = await fetch(variant.url)
      expect(file.headers.get('content-type')).toBe('image/jpeg')
      const size = imageSize(new Uint8Array(await file.arrayBuffer()))
      expect([size.width, size.height]).toEqual([variant.width, variant.height])
    }
    portraitId = cut.body.variants[0].id
    const library = await api('GET', '/v1/media')
    expect(library.status, JSON.stringify(library.body)).toBe(200)
    expect(library.body.map((m: { id: string }) => m.id)).toEqual(expect.arrayContaining([asset.body.id, portraitId]))
  })

  it('publishes a post now to three SANDBOX accounts, shows it published with permalinks, and sends the events', async () => {
    const targets = [accounts.PHOTO_NET!, accounts.MICROBLOG_NET!, accounts.PROFESSIONAL_NET!]
    const caption = 'Harbour lights, tonight only'
    const created = await api('POST', '/v1/posts', {
      type: 'IMAGE',
      accountIds: targets,
      mediaIds: [portraitId],
      action: 'now',
      caption,
    })
    expect(created.status, JSON.stringify(created.body)).toBe(200)
    const id = created.body.id
    await expect
      .poll(async () => (await api('GET', `/v1/posts/${id}`)).body.status, { timeout: 30_000, interval: 200 })
      .toBe('PUBLISHED')
    const post = (await api('GET', `/v1/posts/${id}`)).body
    expect(post.targets.map((t: { accountId: string }) => t.accountId).sort()).toEqual([...targets].sort())
    for (const target of post.targets) {
      expect(target.status).toBe('PUBLISHED')
      const page = await fetch(target.permalink)
      expect(page.status).toBe(200)
      expect(await page.text()).toContain(caption)
    }
    const listed = await api('GET', '/v1/posts?status=PUBLISHED')
    expect(listed.status, JSON.stringify(listed.body)).toBe(200)
    expect(listed.body.map((p: { id: string }) => p.id)).toContain(id)

    await expect.poll(() => verifiedMessages('post.published').length, { timeout: 30_000 }).toBe(1)
    expect(verifiedMessages('post.published')[0].data).toMatchObject({ id, status: 'PUBLISHED' })
    await expect.poll(() => verifiedMessages('target.published').length, { timeout: 30_000 }).toBe(3)
  })

  it('creates posts from a CSV document and reports each line', async () => {
    const csv = [
      'accountIds,caption,scheduledAt',
      `${accounts.MICROBLOG_NET}|${accounts.CHAT_NET},"Spring menu, day one",2099-03-01T09:30:00Z`,
      'acc_doesnotexist,Nobody gets this,',
      `${accounts.FEDERATED_NET},A draft for later,`,
    ].join('\n')
    const report = await api('POST', '/v1/posts/bulk', { csv })
    expect(report.status, JSON.stringify(report.body)).toBe(200)
    expect(report.body).toMatchObject({ total: 3, succeeded: 2, failed: 1 })
    expect(report.body.rows.map((r: { line: number; ok: boolean }) => [r.line, r.ok])).toEqual([
      [2, true],
      [3, false],
      [4, true],
    ])
    const scheduled = await api('GET', `/v1/posts/${report.body.rows[0].postId}`)
    expect(scheduled.body).toMatchObject({ status: 'SCHEDULED', caption: 'Spring menu, day one' })
  })

  it('answers analytics and best times for the workspace', async () => {
    const analytics = await api('GET', '/v1/analytics')
    expect(analytics.status, JSON.stringify(analytics.body)).toBe(200)
    expect(analytics.body.accounts.length).toBeGreaterThanOrEqual(12)
    const best = await api('GET', '/v1/best-times')
    expect(best.status, JSON.stringify(best.body)).toBe(200)
  })

  it('logged no error meanwhile', () => {
    expect(loggedErrors(product.logFile)).toEqual([])
  })
})
