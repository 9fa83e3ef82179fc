/**
 * A loopback webhook receiver for the tests: real HTTP on 127.0.0.1 that records each request and
 * answers from a script (a status per request, then 200). `verify` checks a message with the
 * `standardwebhooks` library itself, as a user's receiver would.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'
import { afterAll } from 'vitest'
import type { Clock } from '../../src/infra/clock'
import type { WebhookPolicy } from '../../src/domain/webhooks/policy'
import { createTestApp, type TestApp, type TestAppOptions } from '../support/test-app'

export interface Received {
  headers: Record<string, string>
  body: string
  json: any
}

export interface Receiver {
  url: string
  port: number
  received: Received[]
  /** The statuses of the next answers, in order (then 200); a header set may go with one. */
  script: Array<number | { status: number; headers?: Record<string, string>; body?: string; delayMs?: number }>
  close(): Promise<void>
  /** Listens again on the same port (after `close`). */
  reopen(): Promise<void>
}

const servers: Server[] = []
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((r) => s.close(() => r(undefined)))))
})

export async function startReceiver(port = 0): Promise<Receiver> {
  const received: Received[] = []
  const script: Receiver['script'] = []
  let server: Server
  const listen = (p: number) =>
    new Promise<number>((resolve) => {
      server = createServer((req, res) => {
        const chunks: Buffer[] = []
        req.on('data', (c: Buffer) => chunks.push(c))
        req.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8')
          const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]))
          received.push({ headers, body, json: JSON.parse(body) })
          const next = script.shift() ?? 200
          const reply = typeof next === 'number' ? { status: next } : next
          const answer = () => {
            if (res.destroyed) return
            res.writeHead(reply.status, { 'content-type': 'text/plain', ...reply.headers })
            res.end(reply.body ?? (reply.status < 300 ? 'ok' : 'receiver says no'))
          }
          if (reply.delayMs) setTimeout(answer, reply.delayMs)
          else answer()
        })
      })
      servers.push(server)
      server.listen(p, '127.0.0.1', () => resolve((server.address() as AddressInfo).port))
    })
  const bound = await listen(port)
  return {
    url: `http://127.0.0.1:${bound}/hooks`,
    port: bound,
    received,
    script,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections()
        server.close(() => r())
      }),
    reopen: async () => {
      await listen(bound)
    },
  }
}

/** Verifies with the standardwebhooks library; throws WebhookVerificationError when it does not. */
export function verify(secret: string, message: Received): unknown {
  return new Webhook(secret).verify(message.body, message.headers)
}

/**
 * The same check at a moved clock: the library's own signature of the message at its timestamp must
 * be one of the header's (`verify` itself refuses a timestamp five minutes from the real time).
 */
export function verifySignatureOnly(secret: string, message: Received): void {
  const at = new Date(Number(message.headers['webhook-timestamp']) * 1000)
  const expected = new Webhook(secret).sign(message.headers['webhook-id']!, at, message.body)
  if (!message.headers['webhook-signature']!.split(' ').includes(expected)) throw new Error('signature mismatch')
}

/** A clock that runs with real time, plus an offset a test moves forward. */
export function movableClock(): Clock & { advance(ms: number): void } {
  let offset = 0
  return { now: () => new Date(Date.now() + offset), advance: (ms) => (offset += ms) }
}

/** Retries in milliseconds, without jitter: no test waits for a real backoff. */
export const FAST_WEBHOOKS: Partial<WebhookPolicy> = {
  backoffBaseMs: 40,
  backoffFactor: 2,
  backoffMaxMs: 200,
  random: () => 0.5,
}

export async function webhookApp(
  options: TestAppOptions & { webhooks?: Partial<WebhookPolicy>; dropTriggers?: boolean } = {},
): Promise<TestApp> {
  const { webhooks, dropTriggers, parts, ...rest } = options
  return createTestApp({
    ...rest,
    parts: (given) => ({
      ...(parts ? parts(given) : given),
      settings: { ...given.settings, webhooks: { ...FAST_WEBHOOKS, ...webhooks } },
      // A process that commits and dies before it sends: nothing reaches the queue.
      ...(dropTriggers ? { webhookQueue: { enqueue: async () => {} } } : {}),
    }),
  })
}

export { until } from '../support/until'

export async function addEndpoint(t: TestApp, url: string, events: string[]) {
  const res = await t.call('POST', '/v1/webhooks', { body: { url, events } })
  if (res.status !== 200) throw new Error(`create endpoint: ${res.status} ${await res.text()}`)
  return (await res.json()) as { id: string; secret: string }
}
