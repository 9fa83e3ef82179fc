import { describe, expect, it } from 'vitest'
import { createLogger } from '../../src/infra/logger'
import { createInProcessWebhookQueue } from '../../src/infra/webhook-queue/in-process'

const silent = createLogger('silent')
const tick = (ms = 20) => new Promise((r) => setTimeout(r, ms))

describe('in-process webhook queue', () => {
  it('runs each attempt at its time, earliest first, and the same (delivery, time) once', async () => {
    const ran: string[] = []
    const queue = createInProcessWebhookQueue({ run: async (id) => ran.push(id), logger: silent })
    const now = Date.now()
    await queue.enqueue([
      { deliveryId: 'late', notBefore: new Date(now + 120) },
      { deliveryId: 'now', notBefore: new Date(now) },
      { deliveryId: 'now', notBefore: new Date(now) },
    ])
    await tick()
    expect(ran).toEqual(['now'])
    await tick(160)
    expect(ran).toEqual(['now', 'late'])
    await queue.close()
  })

  it('keeps running after an attempt throws, and drops what waits when closed', async () => {
    const ran: string[] = []
    const lines: string[] = []
    const queue = createInProcessWebhookQueue({
      run: async (id) => {
        ran.push(id)
        if (id === 'bad') throw new Error('boom')
      },
      logger: createLogger('error', (l) => lines.push(l)),
    })
    await queue.enqueue([
      { deliveryId: 'bad', notBefore: new Date() },
      { deliveryId: 'good', notBefore: new Date() },
    ])
    await tick()
    expect(ran).toEqual(['bad', 'good'])
    expect(lines.some((l) => l.includes('webhook_attempt_failed'))).toBe(true)
    await queue.enqueue([{ deliveryId: 'never', notBefore: new Date(Date.now() + 50) }])
    await queue.close()
    await tick(100)
    expect(ran).not.toContain('never')
    expect(queue.pending).toBe(0)
  })
})
