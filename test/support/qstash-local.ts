import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A loopback stand-in for QStash, written from its documented HTTP protocol, so tests run
 * the real `@upstash/qstash` Client and Receiver without the network or QStash's dev binary.
 *
 * - `POST /v2/publish/<destination>` (destination appended raw) and `POST /v2/batch` (a JSON array of
 *   `{ destination, headers, body }`), both with `Authorization: Bearer <token>` (401 otherwise).
 * - `Upstash-Not-Before` (epoch seconds) or `Upstash-Delay` (`90s`, `2m`, `1h30m`...) set the due
 *   time; `Upstash-Deduplication-Id` answers a repeat with the first messageId and
 *   `deduplicated: true`, and does not deliver it again; `Upstash-Retries` (default 3) bounds the
 *   retries after a non-2xx answer or a connection failure; `Upstash-Method`; `Upstash-Forward-*`.
 * - Delivery: the method and body as published, `Upstash-Signature` (HS256 JWT signed with the
 *   current signing key: iss `Upstash`, sub the destination, exp/nbf/iat, jti, body = base64url of
 *   the body's SHA-256), `Upstash-Message-Id`, `Upstash-Retried`.
 * - `GET /local/publishes` (Bearer): what was published, for tests that cannot read this process's
 *   memory (workerd).
 * - Misbehaving as a queue may (test/faults/queue-misbehaving.test.ts): `duplicate` delivers every
 *   message twice (at once, or one after the other); `signingKey` signs with another key (the next
 *   one during a rotation, or a wrong one); `hold()` keeps every message accepted or falling due
 *   (a late queue: due times are ignored) until `release(order)` delivers them all at once, in arrival order, reversed or shuffled.
 *
 * WebCrypto only for the signature; one timer per message; all state lives in the returned object.
 */

const enc = new TextEncoder()

export function base64url(bytes: Uint8Array | string): string {
  const data = typeof bytes === 'string' ? enc.encode(bytes) : bytes
  let binary = ''
  for (const byte of data) binary += String.fromCharCode(byte)
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

/** An `Upstash-Signature` for `body` delivered to `url`, as QStash makes them. */
export async function signUpstashJwt(input: {
  key: string
  url: string
  body: string
  nowSec?: number
  ttlSec?: number
}): Promise<string> {
  const now = input.nowSec ?? Math.floor(Date.now() / 1000)
  const bodyHash = new Uint8Array(await crypto.subtle.digest('SHA-256', enc.encode(input.body)))
  const header = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))
  const claims = {
    iss: 'Upstash',
    sub: input.url,
    exp: now + (input.ttlSec ?? 300),
    nbf: now,
    iat: now,
    jti: `jwt_${crypto.randomUUID()}`,
    body: base64url(bodyHash),
  }
  const payload = base64url(JSON.stringify(claims))
  const key = await crypto.subtle.importKey('raw', enc.encode(input.key), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ])
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, enc.encode(`${header}.${payload}`)))
  return `${header}.${payload}.${base64url(mac)}`
}

/** A message as the stand-in accepted it (header names lower-cased). */
export interface LocalMessage {
  messageId: string
  via: 'publish' | 'batch'
  destination: string
  headers: Record<string, string>
  body: string
  /** Due time, epoch milliseconds. */
  dueAt: number
  /** True for a repeat of a de-duplication id: answered with the first messageId, never delivered. */
  deduplicated: boolean
}

export interface LocalDeliveryAttempt {
  messageId: string
  destination: string
  /** Epoch milliseconds when the attempt started. */
  at: number
  retried: number
  /** The destination's status, or 0 when it could not be reached. */
  status: number
  /** The start of the destination's answer (set once it answered). */
  answer?: string
}

export interface LocalQStash {
  /** Base URL for `new Client({ baseUrl })`. */
  url: string
  token: string
  currentSigningKey: string
  nextSigningKey: string
  /** Every accepted publish, repeats included, in arrival order. */
  publishes: LocalMessage[]
  attempts: LocalDeliveryAttempt[]
  /** Resolves once nothing is scheduled or being delivered (held messages do not count). */
  idle(): Promise<void>
  /** From now on, messages accepted or falling due are kept, not delivered (a late queue). */
  hold(): void
  /** Stops holding and delivers the held messages at once, in this order; answers how many. */
  release(order?: 'arrival' | 'reverse' | 'shuffle'): number
  /** Messages held so far. */
  held: LocalMessage[]
  close(): Promise<void>
}

export interface LocalQStashOptions {
  token?: string
  currentSigningKey?: string
  nextSigningKey?: string
  /** Wait before retry number `retried + 1` (QStash waits seconds to hours; tests want milliseconds). */
  retryDelayMs?: (retried: number) => number
  /** Every message delivered twice: both at once (`concurrent`) or the second after the first's answer. */
  duplicate?: 'concurrent' | 'sequential'
  /** The clock due times are read on (a test's clock); signatures keep real time. */
  now?: () => number
  /** The key deliveries are signed with, read at each delivery (default: the current signing key). */
  signingKey?: () => string
}

const DURATION_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }

/** `Upstash-Delay`: `90s`, `1h30m`, `500ms`; a bare number counts seconds. Null when unreadable. */
export function parseDelay(value: string): number | null {
  if (/^\d+$/.test(value)) return Number(value) * 1000
  const parts = [...value.matchAll(/(\d+)(ms|s|m|h|d)/g)]
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== value) return null
  return parts.reduce((sum, p) => sum + Number(p[1]) * DURATION_MS[p[2]!]!, 0)
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
}

export async function startLocalQStash(options: LocalQStashOptions = {}): Promise<LocalQStash> {
  const { createServer } = await import('node:http')
  const token = options.token ?? `qstash-local-${crypto.randomUUID()}`
  const currentSigningKey = options.currentSigningKey ?? `sig_current_${crypto.randomUUID()}`
  const nextSigningKey = options.nextSigningKey ?? `sig_next_${crypto.randomUUID()}`
  const retryDelayMs = options.retryDelayMs ?? ((retried: number) => 20 * 2 ** retried)
  const publishes: LocalMessage[] = []
  const attempts: LocalDeliveryAttempt[] = []
  const byDedupId = new Map<string, string>()
  const timers = new Set<ReturnType<typeof setTimeout>>()
  const inFlight = new Set<Promise<void>>()
  const abort = new AbortController()
  let idleWaiters: Array<() => void> = []
  let counter = 0
  let holding = false
  const held: LocalMessage[] = []

  const checkIdle = () => {
    if (timers.size > 0 || inFlight.size > 0) return
    const waiters = idleWaiters
    idleWaiters = []
    for (const resolve of waiters) resolve()
  }

  const later = (ms: number, fn: () => void) => {
    const timer = setTimeout(
      () => {
        timers.delete(timer)
        fn()
        checkIdle()
      },
      Math.max(0, ms),
    )
    timers.add(timer)
  }

  const deliver = (message: LocalMessage, retried: number) => {
    if (retried === 0 && options.duplicate === 'concurrent') deliverOnce(message, 0)
    deliverOnce(message, retried, retried === 0 && options.duplicate === 'sequential')
  }

  const deliverOnce = (message: LocalMessage, retried: number, again = false) => {
    const task = (async () => {
      const forwarded = Object.entries(message.headers)
        .filter(([k]) => k.startsWith('upstash-forward-'))
        .map(([k, v]): [string, string] => [k.slice('upstash-forward-'.length), v])
      const headers = new Headers(forwarded)
      if (message.headers['content-type']) headers.set('content-type', message.headers['content-type'])
      headers.set(
        'upstash-signature',
        await signUpstashJwt({
          key: options.signingKey?.() ?? currentSigningKey,
          url: message.destination,
          body: message.body,
        }),
      )
      headers.set('upstash-message-id', message.messageId)
      headers.set('upstash-retried', String(retried))
      const method = message.headers['upstash-method'] ?? 'POST'
      const attempt: LocalDeliveryAttempt = {
        messageId: message.messageId,
        destination: message.destination,
        at: Date.now(),
        retried,
        status: 0,
      }
      attempts.push(attempt)
      try {
        const res = await fetch(message.destination, {
          method,
          headers,
          signal: abort.signal,
          ...(method === 'GET' || method === 'HEAD' ? {} : { body: message.body }),
        })
        attempt.status = res.status
        attempt.answer = (await res.text()).slice(0, 200)
      } catch {
        attempt.status = 0
      }
      const maxRetries = Number(message.headers['upstash-retries'] ?? 3)
      const ok = attempt.status >= 200 && attempt.status < 300
      if (!ok && retried < maxRetries && !abort.signal.aborted)
        later(retryDelayMs(retried), () => deliver(message, retried + 1))
      if (again && !abort.signal.aborted) deliverOnce(message, 0)
    })().finally(() => {
      inFlight.delete(task)
      checkIdle()
    })
    inFlight.add(task)
  }

  /** Accepts one message; the answer is what QStash returns for it. */
  const accept = (via: LocalMessage['via'], destination: string, rawHeaders: Record<string, string>, body: string) => {
    const headers = Object.fromEntries(Object.entries(rawHeaders).map(([k, v]) => [k.toLowerCase(), v]))
    if (!/^https?:\/\/[^/]/.test(destination)) return { error: `invalid destination: ${destination}` }
    const now = options.now?.() ?? Date.now()
    const notBefore = headers['upstash-not-before']
    const delay = headers['upstash-delay'] !== undefined ? parseDelay(headers['upstash-delay']) : 0
    if ((notBefore !== undefined && !/^\d+$/.test(notBefore)) || delay === null)
      return { error: 'invalid Upstash-Not-Before or Upstash-Delay' }
    const dueAt = notBefore !== undefined ? Number(notBefore) * 1000 : now + delay
    const dedupId = headers['upstash-deduplication-id']
    const seen = dedupId !== undefined ? byDedupId.get(dedupId) : undefined
    const messageId = seen ?? `msg_local_${++counter}`
    const message: LocalMessage = {
      messageId,
      via,
      destination,
      headers,
      body,
      dueAt,
      deduplicated: seen !== undefined,
    }
    publishes.push(message)
    if (seen !== undefined) return { messageId, url: destination, deduplicated: true }
    if (dedupId !== undefined) byDedupId.set(dedupId, messageId)
    if (holding) held.push(message)
    else later(dueAt - now, () => (holding ? held.push(message) : deliver(message, 0)))
    return { messageId, url: destination }
  }

  const server = createServer((req, res) => {
    void (async () => {
      if (req.headers.authorization !== `Bearer ${token}`) return send(res, 401, { error: 'Unauthorized' })
      const path = req.url ?? '/'
      if (req.method === 'GET' && path === '/local/publishes') return send(res, 200, publishes)
      if (req.method !== 'POST') return send(res, 404, { error: 'Not found' })
      const body = await readBody(req)
      const headers = Object.fromEntries(
        Object.entries(req.headers).flatMap(([k, v]) => (typeof v === 'string' ? [[k, v]] : [])),
      )
      if (path.startsWith('/v2/publish/')) {
        const result = accept('publish', path.slice('/v2/publish/'.length), headers, body)
        return send(res, 'error' in result ? 400 : 201, result)
      }
      if (path === '/v2/batch') {
        let items: unknown
        try {
          items = JSON.parse(body)
        } catch {
          return send(res, 400, { error: 'invalid JSON' })
        }
        if (!Array.isArray(items)) return send(res, 400, { error: 'expected an array of messages' })
        const results = items.map((raw) => {
          const item = (raw ?? {}) as { destination?: unknown; headers?: Record<string, string>; body?: unknown }
          if (typeof item.destination !== 'string') return { error: 'missing destination' }
          return accept('batch', item.destination, item.headers ?? {}, typeof item.body === 'string' ? item.body : '')
        })
        return send(res, 201, results)
      }
      send(res, 404, { error: 'Not found' })
    })().catch(() => send(res, 500, { error: 'stand-in failure' }))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo

  return {
    url: `http://127.0.0.1:${port}`,
    token,
    currentSigningKey,
    nextSigningKey,
    publishes,
    attempts,
    held,
    hold: () => (holding = true),
    release(order = 'arrival') {
      holding = false
      const out = held.splice(0)
      if (order === 'reverse') out.reverse()
      if (order === 'shuffle') out.sort(() => Math.random() - 0.5)
      for (const message of out) deliver(message, 0)
      return out.length
    },
    idle: () =>
      new Promise<void>((resolve) => {
        idleWaiters.push(resolve)
        checkIdle()
      }),
    async close() {
      for (const timer of timers) clearTimeout(timer)
      timers.clear()
      abort.abort()
      await Promise.all([...inFlight])
      checkIdle()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
