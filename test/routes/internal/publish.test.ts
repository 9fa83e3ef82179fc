import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { Client } from '@upstash/qstash'
import { describe, expect, it, vi } from 'vitest'
import type { NetworkRegistry } from '../../../src/networks/registry'
import type { DepsParts } from '../../../src/runtime/build-deps'
import {
  createQStashPublishQueue,
  createQStashVerifier,
  publishCallbackUrl,
} from '../../../src/infra/publish-queue/qstash'
import { fakeNetwork } from '../../support/engine'
import { account } from '../../support/fixtures'
import { signUpstashJwt, startLocalQStash } from '../../support/qstash-local'
import { createTestApp, type TestApp, type TestAppOptions } from '../../support/test-app'

const PUBLIC_URL = 'https://api.example.test'
const CALLBACK_URL = publishCallbackUrl(PUBLIC_URL)
const KEYS = {
  currentSigningKey: `sig_current_${crypto.randomUUID()}`,
  nextSigningKey: `sig_next_${crypto.randomUUID()}`,
}

/**
 * Stands in for a dependency that must not be touched: any property read is recorded (and fails).
 * Injected as the app's clients, so a request that reaches the database, the queue, storage, the
 * limiter, the cipher or the networks shows up in `touched`.
 */
function tripwires() {
  const touched: string[] = []
  const wire = <T>(name: string): T =>
    new Proxy(
      {},
      {
        get(_target, prop) {
          touched.push(`${name}.${String(prop)}`)
          throw new Error(`tripwire: ${name}`)
        },
      },
    ) as T
  const options = {
    parts: (parts: DepsParts): DepsParts => ({
      ...parts,
      db: wire('db'),
      publishQueue: wire('publishQueue'),
      storage: wire('storage'),
      rateLimiter: wire('rateLimiter'),
      cipher: wire('cipher'),
      imageCodecs: wire('imageCodecs'),
    }),
    networkRegistry: wire<NetworkRegistry>('networks'),
  } satisfies TestAppOptions
  return { touched, options }
}

/** A test app as the Worker is: the QStash verifier with test keys, and PUBLIC_URL set. */
function workerLikeApp(options: TestAppOptions = {}): Promise<TestApp> {
  return createTestApp({ ...options, publicUrl: PUBLIC_URL, deliveryVerifier: createQStashVerifier(KEYS) })
}

function callback(t: TestApp, body: string, signature?: string) {
  return t.call('POST', '/internal/publish', {
    token: null,
    body,
    headers: {
      'content-type': 'application/json',
      ...(signature !== undefined ? { 'upstash-signature': signature } : {}),
    },
  })
}

const BODY = JSON.stringify({ targetId: 'tgt_0000000000000000', version: 1 })

describe('POST /internal/publish (QStash callback)', () => {
  it('does not exist where deliveries do not arrive over HTTP (Node: no verifier)', async () => {
    const { touched, options } = tripwires()
    const t = await createTestApp(options)
    const res = await callback(
      t,
      BODY,
      await signUpstashJwt({ key: KEYS.currentSigningKey, url: CALLBACK_URL, body: BODY }),
    )
    expect(res.status).toBe(404)
    expect((await res.json()).error.code).toBe('not_found')
    expect(touched).toEqual([])
  })

  const rejected: Array<[string, () => Promise<string | undefined>, string?]> = [
    ['no signature', async () => undefined],
    ['an empty signature', async () => ''],
    ['a signature that is not a JWT', async () => 'not-a-jwt'],
    [
      'a signature made with another key',
      () => signUpstashJwt({ key: 'sig_attacker_key', url: CALLBACK_URL, body: BODY }),
    ],
    [
      'a signature over another body',
      () =>
        signUpstashJwt({
          key: KEYS.currentSigningKey,
          url: CALLBACK_URL,
          body: JSON.stringify({ targetId: 'tgt_other', version: 1 }),
        }),
    ],
    [
      'a signature for another URL',
      () =>
        signUpstashJwt({ key: KEYS.currentSigningKey, url: 'https://elsewhere.example/internal/publish', body: BODY }),
    ],
    [
      'an expired signature',
      () =>
        signUpstashJwt({
          key: KEYS.currentSigningKey,
          url: CALLBACK_URL,
          body: BODY,
          nowSec: Math.floor(Date.now() / 1000) - 3_600,
        }),
    ],
    [
      'a signature over the body before tampering',
      () => signUpstashJwt({ key: KEYS.currentSigningKey, url: CALLBACK_URL, body: BODY }),
      BODY.replace('"version":1', '"version":2'),
    ],
  ]

  it.each(rejected)('answers 401 for %s, and touches nothing else', async (_case, sign, sentBody) => {
    const lines: string[] = []
    const { touched, options } = tripwires()
    const t = await workerLikeApp({ ...options, logLines: lines })
    const signature = await sign()
    const res = await callback(t, sentBody ?? BODY, signature)
    expect(res.status).toBe(401)
    const requestId = res.headers.get('X-Request-Id')
    expect(await res.json()).toEqual({ error: { code: 'unauthorized', message: expect.any(String), requestId } })
    expect(res.headers.get('RateLimit-Limit')).toBeNull()
    expect(touched).toEqual([])
    expect(lines.map((l) => JSON.parse(l).event)).toContain('publish_callback_rejected')
    if (signature) expect(lines.join('\n')).not.toContain(signature)
  })

  it('answers 400 for a validly signed body that is not { targetId, version }, touching nothing', async () => {
    const { touched, options } = tripwires()
    const t = await workerLikeApp(options)
    for (const body of [
      '{not json',
      JSON.stringify({ targetId: 'tgt_x' }),
      JSON.stringify({ targetId: '', version: 1 }),
      JSON.stringify({ targetId: 'tgt_x', version: 1.5 }),
    ]) {
      const res = await callback(
        t,
        body,
        await signUpstashJwt({ key: KEYS.currentSigningKey, url: CALLBACK_URL, body }),
      )
      expect(res.status, body).toBe(400)
      expect((await res.json()).error.code).toBe('invalid_request')
    }
    expect(touched).toEqual([])
  })

  it('answers 413 for an oversized body without reading it into the engine', async () => {
    const { touched, options } = tripwires()
    const t = await workerLikeApp(options)
    const body = JSON.stringify({ targetId: 'tgt_x', version: 1, pad: 'x'.repeat(20_000) })
    const res = await callback(t, body, await signUpstashJwt({ key: KEYS.currentSigningKey, url: CALLBACK_URL, body }))
    expect(res.status).toBe(413)
    expect(touched).toEqual([])
  })

  it.each([
    ['the current key', KEYS.currentSigningKey],
    ['the next key (rotation)', KEYS.nextSigningKey],
  ])('hands a callback signed with %s to the engine, which answers its outcome', async (_case, key) => {
    const t = await workerLikeApp()
    // An unknown target: the engine's claim finds nothing to publish.
    const res = await callback(t, BODY, await signUpstashJwt({ key, url: CALLBACK_URL, body: BODY }))
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ outcome: 'skipped' })
  })

  it('publishes a due target once, however often the signed callback is delivered', async () => {
    const network = fakeNetwork()
    const t = await workerLikeApp({ networkRegistry: network.registry })
    const a = await account(t, 'MICROBLOG_NET')
    const created = await t.call('POST', '/v1/posts', {
      body: { type: 'IMAGE', mediaIds: [], caption: 'Hello', accountIds: [a.id], action: 'now' },
    })
    expect(created.status).toBe(200)
    expect(t.publishQueue.deliveries).toHaveLength(1)
    const { targetId, version } = t.publishQueue.deliveries[0]!
    const body = JSON.stringify({ targetId, version })
    const signature = await signUpstashJwt({ key: KEYS.currentSigningKey, url: CALLBACK_URL, body })
    const outcomes = await Promise.all(
      [1, 2, 3].map(async () => (await (await callback(t, body, signature)).json()).outcome),
    )
    expect(outcomes.sort()).toEqual(['published', 'skipped', 'skipped'])
    expect(network.calls()).toBe(1)
  })

  it('end to end on loopback: a post published now goes out through QStash (stand-in) and comes back signed', async () => {
    const qstash = await startLocalQStash(KEYS)
    // Listen first: the app's deps need the address the callbacks come back to.
    let app: TestApp['app'] | undefined
    const server = serve({
      fetch: (req) => (app ? app.fetch(req) : new Response('starting', { status: 503 })),
      hostname: '127.0.0.1',
      port: 0,
    })
    try {
      await new Promise<void>((r) => (server.listening ? r() : server.once('listening', () => r())))
      const publicUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
      const network = fakeNetwork()
      const t = await createTestApp({
        networkRegistry: network.registry,
        publicUrl,
        deliveryVerifier: createQStashVerifier(KEYS),
        publishQueue: createQStashPublishQueue({
          client: new Client({ baseUrl: qstash.url, token: qstash.token, devMode: false }),
          callbackUrl: publishCallbackUrl(publicUrl),
        }),
      })
      app = t.app
      const a = await account(t, 'MICROBLOG_NET')
      const created = await (
        await t.call('POST', '/v1/posts', {
          body: { type: 'IMAGE', mediaIds: [], caption: 'Hello', accountIds: [a.id], action: 'now' },
        })
      ).json()
      await vi.waitFor(
        async () => expect((await (await t.call('GET', `/v1/posts/${created.id}`)).json()).status).toBe('PUBLISHED'),
        { timeout: 5_000, interval: 100 },
      )
      await qstash.idle()
      expect(qstash.attempts).toEqual([
        expect.objectContaining({ destination: `${publicUrl}/internal/publish`, status: 200, retried: 0 }),
      ])
      expect(network.calls()).toBe(1)
    } finally {
      await qstash.close()
      await new Promise((r) => server.close(r))
    }
  })

  it('is not in the OpenAPI document and needs no API token', async () => {
    const t = await createTestApp()
    const doc = await (await t.call('GET', '/v1/openapi.json', { token: null })).json()
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/internal'))).toEqual([])
  })
})
