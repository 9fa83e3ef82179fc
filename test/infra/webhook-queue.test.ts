import { afterEach, describe, expect, it, vi } from 'vitest'
import { systemClock } from '../../src/infra/clock'
import { createLogger } from '../../src/infra/logger'
import { createInProcessWebhookQueue } from '../../src/infra/webhook-queue/in-process'
import { fixedClock } from '../support/fixtures'

const silent = createLogger('silent')
/** The system clock, read through the faked `Date`. */
const clock = systemClock()

describe('in-process webhook queue', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('runs each attempt at its time, earliest first, and the same (delivery, time) once', async () => {
    vi.useFakeTimers({ now: 1_000_000 })
    const ran: string[] = []
    const queue = createInProcessWebhookQueue({ run: async (id) => ran.push(id), logger: silent, clock })
    const now = Date.now()
    await queue.enqueue([
      { deliveryId: 'late', notBefore: new Date(now + 120) },
      { deliveryId: 'now', notBefore: new Date(now) },
      { deliveryId: 'now', notBefore: new Date(now) },
    ])
    await vi.advanceTimersByTimeAsync(119)
    expect(ran).toEqual(['now'])
    await vi.advanceTimersByTimeAsync(1)
    expect(ran).toEqual(['now', 'late'])
    await queue.close()
  })

  it('keeps running after an attempt throws, and drops what waits when closed', async () => {
    vi.useFakeTimers()
    const ran: string[] = []
    const lines: string[] = []
    const queue = createInProcessWebhookQueue({
      run: async (id) => {
        ran.push(id)
        if (id === 'bad') throw new Error('boom')
      },
      logger: createLogger('error', (l) => lines.push(l)),
      clock,
    })
    await queue.enqueue([
      { deliveryId: 'bad', notBefore: new Date() },
      { deliveryId: 'good', notBefore: new Date() },
    ])
    await vi.advanceTimersByTimeAsync(0)
    expect(ran).toEqual(['bad', 'good'])
    expect(lines.some((l) => l.includes('webhook_attempt_failed'))).toBe(true)
    await queue.enqueue([{ deliveryId: 'never', notBefore: new Date(Date.now() + 50) }])
    await queue.close()
    await vi.advanceTimersByTimeAsync(60_000)
    expect(ran).not.toContain('never')
    expect(queue.pending).toBe(0)
  })

  it('takes "now" from the injected clock, not from the machine', async () => {
    // Timers faked, Date not: the machine's time is real, the app's clock is set to 2030.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const appClock = fixedClock('2029-12-31T23:59:00Z')
    const ran: string[] = []
    const queue = createInProcessWebhookQueue({ run: async (id) => ran.push(id), logger: silent, clock: appClock })
    await queue.enqueue([
      { deliveryId: 'due-at-2030', notBefore: new Date('2030-01-01T00:00:00Z') },
      { deliveryId: 'due-yesterday', notBefore: new Date('2029-12-30T23:59:00Z') },
    ])
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

  it('hands due attempts to runBatch together, and runs at most perEndpoint to one endpoint at once', async () => {
    const batches: string[][] = []
    const open = new Map<string, () => void>()
    const queue = createInProcessWebhookQueue({
      run: async () => {
        throw new Error('runBatch takes every attempt')
      },
      runBatch: (ids) => {
        batches.push(ids)
        return ids.map((id) => new Promise<void>((done) => open.set(id, done)))
      },
      perEndpoint: 2,
      logger: silent,
      clock,
    })
    const now = new Date()
    await queue.enqueue([
      ...['s1', 's2', 's3', 's4'].map((id) => ({ deliveryId: id, endpointId: 'slow', notBefore: now })),
      { deliveryId: 'f1', endpointId: 'fast', notBefore: now },
      { deliveryId: 'f2', endpointId: 'fast', notBefore: now },
    ])
    await vi.waitFor(() => expect(batches.flat()).toHaveLength(4))
    // The slow endpoint's third and fourth wait aside; the fast one's go in the same batch.
    expect(batches).toEqual([['s1', 's2', 'f1', 'f2']])
    expect(queue.pending).toBe(6)
    open.get('s1')!()
    await vi.waitFor(() => expect(batches).toEqual([['s1', 's2', 'f1', 'f2'], ['s3']]))
    for (const id of ['s2', 'f1', 'f2', 's3']) open.get(id)!()
    await vi.waitFor(() => expect(batches.flat()).toContain('s4'))
    open.get('s4')!()
    await vi.waitFor(() => expect(queue.pending).toBe(0))
    await queue.close()
  })
})
