import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Client } from '@upstash/qstash'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { systemClock } from '../../src/infra/clock'
import { createLogger } from '../../src/infra/logger'
import { createInProcessPublishQueue, DEFAULT_PUBLISH_CONCURRENCY } from '../../src/infra/publish-queue/in-process'
import {
  createQStashPublishQueue,
  createQStashVerifier,
  PUBLISH_CALLBACK_PATH,
} from '../../src/infra/publish-queue/qstash'
import type { Delivery } from '../../src/infra/publish-queue/types'
import { fixedClock } from '../support/fixtures'
import { startLocalQStash, type LocalQStash } from '../support/qstash-local'

const delivery = (targetId: string, notBefore: number, attempt = 1, version = 1): Delivery => ({
  targetId,
  version,
  attempt,
  notBefore: new Date(notBefore),
})
const silent = createLogger('silent')
/** Under fake timers: resolves when the test advances them by `ms`. */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
/** The system clock (read through the faked `Date` under fake timers). */
const clock = systemClock()

describe('in-process publish queue', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('runs a delivery at its notBefore, never before, in notBefore order (ties in arrival order)', async () => {
    vi.useFakeTimers({ now: 1_000_000 })
    const ran: Array<{ id: string; at: number }> = []
    const queue = createInProcessPublishQueue({
      clock,
      run: async (d) => ran.push({ id: d.targetId, at: Date.now() }),
      concurrency: 1,
      logger: silent,
    })
    const t0 = Date.now()
    await queue.enqueue([
      delivery('c', t0 + 300),
      delivery('a1', t0 + 100),
      delivery('b', t0 + 200),
      delivery('a2', t0 + 100),
    ])
    await vi.advanceTimersByTimeAsync(99)
    expect(ran).toEqual([])
    await vi.advanceTimersByTimeAsync(1)
    expect(ran.map((r) => r.id)).toEqual(['a1', 'a2'])
    await vi.advanceTimersByTimeAsync(500)
    expect(ran.map((r) => r.id)).toEqual(['a1', 'a2', 'b', 'c'])
    for (const r of ran) expect(r.at).toBeGreaterThanOrEqual(t0 + { a1: 100, a2: 100, b: 200, c: 300 }[r.id]!)
    expect(queue.waiting + queue.running).toBe(0)
    await queue.close()
  })

  it('re-arms for an earlier delivery enqueued later, and waits out delays beyond setTimeout’s range', async () => {
    vi.useFakeTimers({ now: 5_000_000 })
    const ran: string[] = []
    const queue = createInProcessPublishQueue({ run: async (d) => ran.push(d.targetId), logger: silent, clock })
    const t0 = Date.now()
    const month = 30 * 86_400_000
    await queue.enqueue([delivery('late', t0 + 10_000), delivery('month', t0 + month)])
    await queue.enqueue([delivery('early', t0 + 1_000)])
    await vi.advanceTimersByTimeAsync(1_000)
    expect(ran).toEqual(['early'])
    await vi.advanceTimersByTimeAsync(9_000)
    expect(ran).toEqual(['early', 'late'])
    await vi.advanceTimersByTimeAsync(month - 10_001)
    expect(ran).toEqual(['early', 'late'])
    await vi.advanceTimersByTimeAsync(1)
    expect(ran).toEqual(['early', 'late', 'month'])
    await queue.close()
  })

  it('never has more than `concurrency` runs in flight', async () => {
    vi.useFakeTimers()
    let inFlight = 0
    let maxInFlight = 0
    let done = 0
    const queue = createInProcessPublishQueue({
      clock,
      concurrency: 8,
      logger: silent,
      run: async () => {
        maxInFlight = Math.max(maxInFlight, ++inFlight)
        await sleep(1 + (done % 3))
        inFlight--
        done++
      },
    })
    await queue.enqueue(Array.from({ length: 200 }, (_, i) => delivery(`t${i}`, Date.now())))
    await vi.runAllTimersAsync()
    expect(done).toBe(200)
    expect(maxInFlight).toBe(8)
    await queue.close()
  })

  it('hands due deliveries to runBatch in batches of at most batchSize, each slot held until its own run ends', async () => {
    vi.useFakeTimers()
    let inFlight = 0
    let maxInFlight = 0
    const batches: number[] = []
    const runs = new Map<string, number>()
    const single = vi.fn(async () => undefined)
    const queue = createInProcessPublishQueue({
      clock,
      concurrency: 16,
      batchSize: 8,
      logger: silent,
      run: single,
      runBatch: (ds) => {
        batches.push(ds.length)
        return ds.map(async (d) => {
          maxInFlight = Math.max(maxInFlight, ++inFlight)
          runs.set(d.targetId, (runs.get(d.targetId) ?? 0) + 1)
          await sleep(1 + (runs.size % 3))
          inFlight--
        })
      },
    })
    await queue.enqueue(Array.from({ length: 200 }, (_, i) => delivery(`t${i}`, Date.now())))
    await vi.runAllTimersAsync()
    expect(queue.waiting + queue.running).toBe(0)
    expect(runs.size).toBe(200)
    expect([...runs.values()].every((n) => n === 1)).toBe(true)
    expect(Math.max(...batches)).toBe(8)
    // A busy queue waits for a few free slots (concurrency / 8) rather than claiming one at a time.
    expect(Math.min(...batches.slice(0, -1))).toBeGreaterThanOrEqual(2)
    expect(maxInFlight).toBeLessThanOrEqual(16)
    expect(single).not.toHaveBeenCalled()
    await queue.close()
  })

  it('keeps going when a run throws or rejects, and logs ids and the error class only', async () => {
    const lines: string[] = []
    const ran: string[] = []
    const queue = createInProcessPublishQueue({
      clock,
      logger: createLogger('debug', (l) => lines.push(l)),
      run: (d) => {
        ran.push(d.targetId)
        if (d.targetId === 'sync') throw new Error('token sps_secretvalue leaked')
        if (d.targetId === 'async') return Promise.reject(new TypeError('password=hunter2'))
        return Promise.resolve()
      },
    })
    const now = Date.now()
    await queue.enqueue([delivery('sync', now), delivery('async', now), delivery('fine', now)])
    await vi.waitFor(() => expect(queue.waiting + queue.running).toBe(0))
    expect(ran.sort()).toEqual(['async', 'fine', 'sync'])
    const failures = lines.map((l) => JSON.parse(l)).filter((l) => l.event === 'publish_delivery_failed')
    expect(failures).toEqual([
      expect.objectContaining({ level: 'error', targetId: 'sync', version: 1, attempt: 1, errorType: 'Error' }),
      expect.objectContaining({ level: 'error', targetId: 'async', errorType: 'TypeError' }),
    ])
    expect(lines.join('\n')).not.toMatch(/secretvalue|hunter2/)
    // Still working afterwards.
    await queue.enqueue([delivery('after', Date.now())])
    await vi.waitFor(() => expect(ran).toContain('after'))
    await queue.close()
  })

  it('holds one delivery per id while it waits or runs (QStash de-duplicates the same way)', async () => {
    vi.useFakeTimers()
    const ran: string[] = []
    const queue = createInProcessPublishQueue({
      clock,
      run: async (d) => ran.push(`${d.targetId}/${d.attempt}`),
      logger: silent,
    })
    const soon = Date.now() + 20
    await queue.enqueue([delivery('x', soon), delivery('x', soon), delivery('x', soon, 2)])
    await queue.enqueue([delivery('x', soon)])
    await vi.advanceTimersByTimeAsync(20)
    expect(ran.sort()).toEqual(['x/1', 'x/2'])
    await vi.advanceTimersByTimeAsync(60_000)
    expect(ran.sort()).toEqual(['x/1', 'x/2'])
    await queue.close()
  })

  it('close() stops the timer, drops what waits, and waits for the runs in flight', async () => {
    vi.useFakeTimers()
    let release!: () => void
    const gate = new Promise<void>((r) => (release = r))
    const ran: string[] = []
    const finished: string[] = []
    const queue = createInProcessPublishQueue({
      clock,
      logger: silent,
      run: async (d) => {
        ran.push(d.targetId)
        await gate
        finished.push(d.targetId)
      },
    })
    await queue.enqueue([delivery('running', Date.now()), delivery('waiting', Date.now() + 50)])
    await vi.advanceTimersByTimeAsync(0)
    expect(ran).toEqual(['running'])
    let closed = false
    const closing = queue.close().then(() => (closed = true))
    await vi.advanceTimersByTimeAsync(100)
    expect(closed).toBe(false)
    release()
    await closing
    expect(finished).toEqual(['running'])
    await queue.enqueue([delivery('after-close', Date.now())])
    await vi.advanceTimersByTimeAsync(60_000)
    expect(ran).toEqual(['running'])
  })

  it('takes "now" from the injected clock, not from the machine', async () => {
    // Timers faked, Date not: the machine's time is real, the app's clock is set to 2030.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const at = Date.parse('2030-01-01T00:00:00Z')
    const appClock = fixedClock('2029-12-31T23:59:00Z')
    const ran: string[] = []
    const queue = createInProcessPublishQueue({
      run: async (d) => ran.push(d.targetId),
      logger: silent,
      clock: appClock,
    })
    await queue.enqueue([delivery('due-at-2030', at), delivery('due-yesterday', at - 86_400_000)])
    await vi.advanceTimersByTimeAsync(0)
    // Due a day ago by the app's clock (years ahead of the machine's): it runs at once.
    expect(ran).toEqual(['due-yesterday'])
    appClock.set('2029-12-31T23:59:59.999Z')
    await vi.advanceTimersByTimeAsync(59_999)
    expect(ran).toEqual(['due-yesterday'])
    appClock.set('2030-01-01T00:00:00Z')
    await vi.advanceTimersByTimeAsync(1)
    expect(ran).toEqual(['due-yesterday', 'due-at-2030'])
    await queue.close()
  })

  it('drains 10,000 deliveries due at once, each exactly once', async () => {
    const runs = new Map<string, number>()
    let inFlight = 0
    let maxInFlight = 0
    const queue = createInProcessPublishQueue({
      clock,
      logger: silent,
      run: async (d) => {
        maxInFlight = Math.max(maxInFlight, ++inFlight)
        runs.set(d.targetId, (runs.get(d.targetId) ?? 0) + 1)
        await new Promise((r) => setImmediate(r))
        inFlight--
      },
    })
    const now = Date.now()
    const started = performance.now()
    await queue.enqueue(Array.from({ length: 10_000 }, (_, i) => delivery(`tgt_${i}`, now - (i % 7))))
    await vi.waitFor(() => expect(queue.waiting + queue.running).toBe(0), { timeout: 20_000, interval: 5 })
    const ms = performance.now() - started
    expect(runs.size).toBe(10_000)
    expect([...runs.values()].every((n) => n === 1)).toBe(true)
    expect(maxInFlight).toBe(DEFAULT_PUBLISH_CONCURRENCY)
    expect(ms).toBeLessThan(5_000)
    await queue.close()
  })
})

describe('QStash publish queue against the local stand-in', () => {
  let qstash: LocalQStash
  let receiver: Server
  let callbackUrl: string
  /** What the loopback destination received, with the real Receiver's verdict on each signature. */
  const received: Array<{ body: string; at: number; verified: boolean; retried: string | undefined }> = []
  const failFirst = new Map<string, number>()

  beforeAll(async () => {
    qstash = await startLocalQStash()
    const verifier = createQStashVerifier({
      currentSigningKey: qstash.currentSigningKey,
      nextSigningKey: qstash.nextSigningKey,
    })
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = []
      req.on('data', (c: Buffer) => chunks.push(c))
      req.on('end', async () => {
        const body = Buffer.concat(chunks).toString('utf8')
        const verified = await verifier.verify(String(req.headers['upstash-signature'] ?? ''), body, callbackUrl)
        received.push({ body, at: Date.now(), verified, retried: req.headers['upstash-retried'] as string | undefined })
        const targetId = (JSON.parse(body) as { targetId: string }).targetId
        const failures = failFirst.get(targetId) ?? 0
        if (failures > 0) failFirst.set(targetId, failures - 1)
        res.writeHead(failures > 0 ? 503 : 200).end()
      })
    })
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r))
    callbackUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}${PUBLISH_CALLBACK_PATH}`
  })

  afterAll(async () => {
    await qstash.close()
    await new Promise((r) => receiver.close(r))
  })

  const newQueue = (retries?: number) =>
    createQStashPublishQueue({
      client: new Client({ baseUrl: qstash.url, token: qstash.token, devMode: false }),
      callbackUrl,
      ...(retries !== undefined ? { retries } : {}),
    })
  const bodiesFor = (targetId: string) => received.filter((r) => JSON.parse(r.body).targetId === targetId)

  it('publishes each delivery to the callback URL with not-before and dedup id, delivered signed at its time', async () => {
    const notBefore = Date.now() + 1_200
    await newQueue(2).enqueue([delivery('tgt_later', notBefore, 3, 7), delivery('tgt_now', Date.now() - 1_000)])
    const later = qstash.publishes.find((p) => JSON.parse(p.body).targetId === 'tgt_later')!
    expect(later).toMatchObject({ via: 'batch', destination: callbackUrl, deduplicated: false })
    expect(JSON.parse(later.body)).toEqual({ targetId: 'tgt_later', version: 7 })
    expect(later.headers).toMatchObject({
      'content-type': 'application/json',
      'upstash-method': 'POST',
      'upstash-not-before': String(Math.ceil(notBefore / 1000)),
      'upstash-deduplication-id': `tgt_later-v7-a3-t${notBefore}`,
      'upstash-retries': '2',
    })
    await vi.waitFor(() => expect(bodiesFor('tgt_now')).toHaveLength(1))
    expect(bodiesFor('tgt_later')).toHaveLength(0)
    await vi.waitFor(() => expect(bodiesFor('tgt_later')).toHaveLength(1), { timeout: 3_000 })
    expect(bodiesFor('tgt_later')[0]!.at).toBeGreaterThanOrEqual(notBefore)
    expect(bodiesFor('tgt_later')[0]!.at).toBeLessThan(notBefore + 1_500)
    expect(received.every((r) => r.verified)).toBe(true)
  })

  it('accepts the same delivery twice but delivers it once', async () => {
    const queue = newQueue()
    const due = Date.now() + 100
    const d = delivery('tgt_dup', due, 1, 2)
    await queue.enqueue([d])
    await queue.enqueue([d, delivery('tgt_dup', due, 2, 2)])
    const published = qstash.publishes.filter((p) => JSON.parse(p.body).targetId === 'tgt_dup')
    expect(published.map((p) => [p.headers['upstash-deduplication-id'], p.deduplicated])).toEqual([
      [`tgt_dup-v2-a1-t${due}`, false],
      [`tgt_dup-v2-a1-t${due}`, true],
      [`tgt_dup-v2-a2-t${due}`, false],
    ])
    expect(published[1]!.messageId).toBe(published[0]!.messageId)
    await qstash.idle()
    expect(bodiesFor('tgt_dup')).toHaveLength(2)
  })

  it("makes a sweep's re-dispatch a new message: the first was delivered, and its id would swallow this one", async () => {
    const queue = newQueue()
    const due = Date.now() - 1_000
    const d = delivery('tgt_redispatched', due, 1, 4)
    await queue.enqueue([d])
    await qstash.idle()
    const sweptAt = new Date(Date.now() + 60_000)
    await queue.enqueue([d, { ...d, redispatchedAt: sweptAt }, { ...d, redispatchedAt: sweptAt }])
    const published = qstash.publishes.filter((p) => JSON.parse(p.body).targetId === 'tgt_redispatched')
    expect(published.map((p) => [p.headers['upstash-deduplication-id'], p.deduplicated])).toEqual([
      [`tgt_redispatched-v4-a1-t${due}`, false],
      [`tgt_redispatched-v4-a1-t${due}`, true],
      [`tgt_redispatched-v4-a1-t${due}-r${sweptAt.getTime()}`, false],
      [`tgt_redispatched-v4-a1-t${due}-r${sweptAt.getTime()}`, true],
    ])
    await qstash.idle()
    expect(bodiesFor('tgt_redispatched')).toHaveLength(2)
  })

  it('retries a delivery answered 5xx, up to Upstash-Retries', async () => {
    failFirst.set('tgt_flaky', 2)
    failFirst.set('tgt_down', 99)
    await newQueue(1).enqueue([delivery('tgt_flaky', Date.now())])
    await newQueue(2).enqueue([delivery('tgt_down', Date.now())])
    await qstash.idle()
    expect(bodiesFor('tgt_flaky').map((r) => r.retried)).toEqual(['0', '1'])
    expect(bodiesFor('tgt_down').map((r) => r.retried)).toEqual(['0', '1', '2'])
  })

  it('also serves single publishes (POST /v2/publish/<url>) with Upstash-Delay, and refuses a wrong token', async () => {
    const client = new Client({ baseUrl: qstash.url, token: qstash.token, devMode: false })
    const before = Date.now()
    const { messageId } = await client.publishJSON({
      url: callbackUrl,
      body: { targetId: 'tgt_single', version: 1 },
      delay: 1,
    })
    expect(qstash.publishes.find((p) => p.messageId === messageId)).toMatchObject({
      via: 'publish',
      destination: callbackUrl,
    })
    await vi.waitFor(() => expect(bodiesFor('tgt_single')).toHaveLength(1), { timeout: 3_000 })
    expect(bodiesFor('tgt_single')[0]!.at - before).toBeGreaterThanOrEqual(1_000)
    const intruder = createQStashPublishQueue({
      client: new Client({ baseUrl: qstash.url, token: 'wrong', devMode: false }),
      callbackUrl,
    })
    await expect(intruder.enqueue([delivery('tgt_intruder', Date.now())])).rejects.toThrow()
    expect(qstash.publishes.some((p) => p.body.includes('tgt_intruder'))).toBe(false)
  })

  it('batches by 100 with a few requests in flight, and rejects when QStash refuses a message', async () => {
    vi.useFakeTimers()
    const batches: number[] = []
    let inFlight = 0
    let maxInFlight = 0
    const client = {
      batchJSON: async (messages: unknown[]) => {
        maxInFlight = Math.max(maxInFlight, ++inFlight)
        const nth = batches.push(messages.length)
        await sleep(5)
        inFlight--
        return messages.map((_, i) =>
          i === 0 && nth === 3 ? { error: 'quota' } : { messageId: `m${i}`, url: callbackUrl },
        )
      },
    } as unknown as Client
    const queue = createQStashPublishQueue({ client, callbackUrl, parallelBatches: 2 })
    const refused = expect(
      queue.enqueue(Array.from({ length: 250 }, (_, i) => delivery(`t${i}`, Date.now()))),
    ).rejects.toThrow('QStash refused 1 of 250 deliveries.')
    await vi.runAllTimersAsync()
    await refused
    expect(batches).toEqual([100, 100, 50])
    expect(maxInFlight).toBe(2)
    await queue.enqueue([])
    expect(batches).toHaveLength(3)
  })
})
