import http from 'node:http'
import { crc32, deflateSync } from 'node:zlib'

/** The operations of the mixed workload and their weights (out of 100). An upload is three requests. */
export const MIX = { list: 30, get: 20, accounts: 10, draft: 18, schedule: 7, now: 5, upload: 10 } as const
export type OpName = keyof typeof MIX
const REQUESTS_PER_OP: Record<OpName, number> = {
  list: 1,
  get: 1,
  accounts: 1,
  draft: 1,
  schedule: 1,
  now: 1,
  upload: 3,
}
const OPS = Object.keys(MIX) as OpName[]
const WEIGHT_TOTAL = OPS.reduce((s, op) => s + MIX[op], 0)
/** HTTP requests per operation on average: the operation rate is the request rate divided by this. */
export const REQUESTS_PER_OP_MEAN = OPS.reduce((s, op) => s + MIX[op] * REQUESTS_PER_OP[op], 0) / WEIGHT_TOTAL

/** One HTTP request: its step (`list`, `upload:put`…), latency, outcome and when it ended (performance.now()). */
export interface Sample {
  step: string
  ms: number
  error: string | null
  endedAt: number
}

/** What one load run works with and what it learned: the ids it created, by how they were created. */
export interface Session {
  /** The first instance's address (setup and verification). */
  baseUrl: string
  /** Every instance's address: operations go to them in turn, as behind a round-robin balancer. */
  baseUrls: string[]
  token: string
  /** Accounts that take text-only posts (publishing needs no media there). */
  accountIds: string[]
  /** Local source addresses, one per virtual client (127.0.0.x: the server's per-IP limiter sees each). */
  clients: string[]
  timeoutMs: number
  agent: http.Agent
  random: () => number
  samples: Sample[]
  created: Map<string, OpName>
  postIds: string[]
  nextClient: number
  counter: number
  /** Requests sent again because their kept-alive socket had just been closed by the server. */
  resent: number
}

export function createSession(options: {
  baseUrls: string[]
  token: string
  accountIds: string[]
  clients: number
  timeoutMs: number
  seed?: number
}): Session {
  return {
    baseUrl: options.baseUrls[0]!,
    baseUrls: options.baseUrls,
    token: options.token,
    accountIds: options.accountIds,
    clients: Array.from({ length: options.clients }, (_, i) => `127.0.${Math.floor(i / 250)}.${2 + (i % 250)}`),
    timeoutMs: options.timeoutMs,
    // Sockets are pooled per local address (the agent's key includes it), kept alive between requests.
    agent: new http.Agent({ keepAlive: true, maxFreeSockets: 4 }),
    random: seededRandom(options.seed ?? 42),
    samples: [],
    created: new Map(),
    postIds: [],
    nextClient: 0,
    counter: 0,
    resent: 0,
  }
}

/** mulberry32: the same workload on every run and database. */
function seededRandom(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const pick = <T>(s: Session, xs: readonly T[]): T => xs[Math.floor(s.random() * xs.length)]!

/** A valid 16×16 RGB PNG, built here: the upload's bytes. */
function tinyPng(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
    const out = Buffer.alloc(body.length + 8)
    out.writeUInt32BE(data.length, 0)
    body.copy(out, 4)
    out.writeUInt32BE(crc32(body) >>> 0, body.length + 4)
    return out
  }
  const size = 16
  const header = Buffer.alloc(13)
  header.writeUInt32BE(size, 0)
  header.writeUInt32BE(size, 4)
  header.set([8, 2, 0, 0, 0], 8) // 8-bit RGB, no interlace
  const raw = Buffer.alloc(size * (1 + size * 3))
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) raw.set([x * 16, y * 16, 128], y * (1 + size * 3) + 1 + x * 3)
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  return Buffer.concat([
    signature,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ])
}
const PNG = tinyPng()

interface Answer {
  status: number
  body: Buffer
}

/** One request from `client`'s address; rejects with `timeout` after the session's limit. */
function send(s: Session, client: string, method: string, url: string, headers: Record<string, string>, body?: Buffer) {
  return new Promise<Answer>((resolve, reject) => {
    const u = new URL(url)
    const req = http.request(
      {
        agent: s.agent,
        localAddress: client,
        hostname: u.hostname,
        port: u.port,
        path: u.pathname + u.search,
        method,
        headers: body ? { ...headers, 'content-length': String(body.length) } : headers,
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => {
          clearTimeout(timer)
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) })
        })
        res.on('error', reject)
      },
    )
    const timer = setTimeout(() => req.destroy(Object.assign(new Error('timeout'), { code: 'timeout' })), s.timeoutMs)
    req.on('error', (err) => {
      clearTimeout(timer)
      reject(Object.assign(err, { reusedSocket: req.reusedSocket }))
    })
    req.end(body)
  })
}

/**
 * Sends one request and records it: latency from `startedAt` (for an operation's first request,
 * the time it was due, so a late generator or a slow server is never hidden). Returns the parsed
 * body of a 200, else null.
 */
export async function step(
  s: Session,
  name: string,
  client: string,
  startedAt: number,
  method: string,
  url: string,
  json?: unknown,
  raw?: { body: Buffer; headers: Record<string, string> },
): Promise<any> {
  const headers: Record<string, string> = raw
    ? raw.headers
    : { authorization: `Bearer ${s.token}`, ...(json === undefined ? {} : { 'content-type': 'application/json' }) }
  const body = raw ? raw.body : json === undefined ? undefined : Buffer.from(JSON.stringify(json))
  let error: string | null = null
  let parsed: any = null
  try {
    const answer = await send(s, client, method, url, headers, body).catch((err) => {
      // A kept-alive socket the server closed as idle just as this request went out: the request
      // never reached it. Send it again once, on a new socket, as Node's documentation advises.
      if (err.code !== 'ECONNRESET' || !err.reusedSocket) throw err
      s.resent++
      return send(s, client, method, url, headers, body)
    })
    if (answer.status !== 200) error = `http_${answer.status}`
    else if (answer.body.length > 0 && !raw) parsed = JSON.parse(answer.body.toString('utf8'))
    else parsed = {}
  } catch (err) {
    error = (err as NodeJS.ErrnoException).code ?? 'network'
  }
  const endedAt = performance.now()
  s.samples.push({ step: name, ms: endedAt - startedAt, error, endedAt })
  return error ? null : parsed
}

/** Runs one operation of `op` from the next virtual client; records every request, never throws. */
export async function runOp(s: Session, op: OpName, dueAt: number): Promise<void> {
  const client = s.clients[s.nextClient++ % s.clients.length]!
  const n = ++s.counter
  const api = `${s.baseUrls[n % s.baseUrls.length]}/v1`
  if (op === 'list') {
    await step(
      s,
      op,
      client,
      dueAt,
      'GET',
      `${api}/posts?page=${1 + Math.floor(s.random() * 5)}&limit=${pick(s, [10, 20, 50])}`,
    )
  } else if (op === 'get' && s.postIds.length > 0) {
    await step(s, op, client, dueAt, 'GET', `${api}/posts/${pick(s, s.postIds)}`)
  } else if (op === 'accounts' || op === 'get') {
    await step(s, 'accounts', client, dueAt, 'GET', `${api}/accounts`)
  } else if (op === 'upload') {
    const ticket = await step(s, 'upload:ticket', client, dueAt, 'POST', `${api}/media/uploads`, {
      filename: `load-${n}.png`,
      contentType: 'image/png',
      sizeBytes: PNG.length,
    })
    if (!ticket) return
    const put = await step(s, 'upload:put', client, performance.now(), 'PUT', ticket.uploadUrl, undefined, {
      body: PNG,
      headers: ticket.headers,
    })
    if (!put) return
    await step(s, 'upload:register', client, performance.now(), 'POST', `${api}/media`, {
      type: 'IMAGE',
      storageKey: ticket.storageKey,
      url: ticket.url,
    })
  } else {
    const accounts = [...new Set(Array.from({ length: 1 + Math.floor(s.random() * 3) }, () => pick(s, s.accountIds)))]
    const scheduledAt = new Date(Date.now() + (1 + s.random() * 29) * 86_400_000).toISOString()
    const post = await step(s, op, client, dueAt, 'POST', `${api}/posts`, {
      type: 'IMAGE',
      accountIds: op === 'now' ? accounts.slice(0, 1) : accounts,
      mediaIds: [],
      action: op,
      caption: `Load test post ${n}: ${op}`,
      ...(op === 'schedule' ? { scheduledAt } : {}),
    })
    if (post?.id) {
      s.created.set(post.id, op)
      s.postIds.push(post.id)
    }
  }
}

export function pickOp(s: Session): OpName {
  let x = s.random() * WEIGHT_TOTAL
  for (const op of OPS) if ((x -= MIX[op]) < 0) return op
  return OPS[OPS.length - 1]!
}

/**
 * Open loop: operation i is issued at start + i / rate whatever the answers so far, so a slow
 * server shows as latency (measured from each due time), not as a lower request rate. `rate`
 * counts HTTP requests, so operations go out at `rate / REQUESTS_PER_OP_MEAN`. Resolves when the
 * last answer (or timeout) is in; returns when the schedule started and the generator's worst lag.
 */
export async function runOpenLoop(s: Session, rate: number, seconds: number) {
  const opRate = rate / REQUESTS_PER_OP_MEAN
  const total = Math.round(opRate * seconds)
  const start = performance.now() + 20
  const dueAt = (i: number) => start + (i * 1000) / opRate
  const inflight = new Set<Promise<void>>()
  let i = 0
  let maxLagMs = 0
  await new Promise<void>((done) => {
    const tick = () => {
      const now = performance.now()
      for (; i < total && dueAt(i) <= now; i++) {
        maxLagMs = Math.max(maxLagMs, now - dueAt(i))
        const p = runOp(s, pickOp(s), dueAt(i))
        inflight.add(p)
        void p.finally(() => inflight.delete(p))
      }
      if (i >= total) done()
      else setTimeout(tick, Math.max(0, Math.min(5, dueAt(i) - performance.now())))
    }
    tick()
  })
  await Promise.all(inflight)
  return { start, operations: total, maxLagMs }
}

/** Closed loop, `concurrency` at a time: `count` drafts, to give the reads posts to find. */
export async function seedDrafts(s: Session, count: number, concurrency = 4): Promise<void> {
  let left = count
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (left-- > 0) await runOp(s, 'draft', performance.now())
    }),
  )
}
