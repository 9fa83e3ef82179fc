import { describe, expect, it } from 'vitest'
import { appOptions, createApp } from '../../src/app'
import { parseNodeConfig } from '../../src/config'
import { createAdmission, createLoopLagMeter } from '../../src/infra/admission'
import { nodeClientIp } from '../../src/runtime/client-ip'
import { addSandboxAccount } from '../../src/services/accounts/accounts'
import { createTestApp } from '../support/test-app'

describe('admission (createAdmission)', () => {
  it('gives turns up to the limit, then in arrival order as turns end, and refuses one that waited too long', async () => {
    const admission = createAdmission({ maxInFlight: 1, maxWaitMs: 60 })
    const first = await admission.enter()
    expect(first).toBeTypeOf('function')
    const order: string[] = []
    const noted = (name: string) => (release: (() => void) | null) => {
      order.push(name)
      return release
    }
    const second = admission.enter().then(noted('second'))
    const third = admission.enter().then(noted('third'))
    expect(admission.stats()).toMatchObject({ inFlight: 1, waiting: 2 })
    first!()
    first!() // a second call of a release gives nothing away
    const got = await second
    expect(got).toBeTypeOf('function')
    // The third waited behind the second, whose turn never ended: refused after its 60 ms.
    const started = performance.now()
    expect(await third).toBeNull()
    expect(performance.now() - started).toBeGreaterThanOrEqual(30)
    expect(order).toEqual(['second', 'third'])
    expect(admission.stats()).toEqual({ inFlight: 1, waiting: 0, admitted: 2, refused: 1 })
    got!()
    expect(admission.stats().inFlight).toBe(0)
  })

  it('refuses at once when as many are waiting as it keeps', async () => {
    const admission = createAdmission({ maxInFlight: 1, maxWaitMs: 10_000, maxWaiting: 1 })
    const first = await admission.enter()
    const waiting = admission.enter()
    expect(await admission.enter()).toBeNull()
    first!()
    ;(await waiting)!()
    expect(admission.stats()).toEqual({ inFlight: 0, waiting: 0, admitted: 2, refused: 1 })
  })

  it('refuses at once while the event loop is further behind than a request may wait, under a burst of requests', async () => {
    let lag = 0
    const admission = createAdmission({ maxInFlight: 8, maxWaitMs: 150, loopLag: () => lag, busyArrivalsPerSec: 3 })
    const admitted = await admission.enter()
    expect(admitted).toBeTypeOf('function')
    admitted!()
    ;(await admission.enter())!()
    lag = 151
    // The third request of the second: a burst.
    expect(await admission.enter()).toBeNull()
    lag = 20
    expect(await admission.enter()).toBeTypeOf('function')
    expect(admission.stats()).toMatchObject({ admitted: 3, refused: 1 })
  })

  it("lets a lone request on after a long piece of the process's own work (the lag alone is not overload)", async () => {
    let lag = 0
    const admission = createAdmission({ maxInFlight: 8, maxWaitMs: 150, loopLag: () => lag })
    // One member on the dashboard while an image's variants held the thread for two seconds.
    lag = 2000
    const first = await admission.enter()
    expect(first).toBeTypeOf('function')
    first!()
    const second = await admission.enter()
    expect(second).toBeTypeOf('function')
    expect(admission.stats()).toMatchObject({ admitted: 2, refused: 0 })
  })

  it('measures how far behind the event loop is, also while work keeps its timer from firing', async () => {
    const meter = createLoopLagMeter(5)
    try {
      await new Promise((r) => setTimeout(r, 20))
      expect(meter.lagMs()).toBeLessThan(50)
      const until = performance.now() + 120
      while (performance.now() < until) {
        // the thread is busy: no timer fires
      }
      expect(meter.lagMs()).toBeGreaterThanOrEqual(100)
      await new Promise((r) => setTimeout(r, 20))
      expect(meter.lagMs()).toBeLessThan(50)
    } finally {
      meter.close()
    }
  })

  it('is on by default for the embedded database (8 at work, 150 ms wait) and off with 0', () => {
    expect(parseNodeConfig({})).toMatchObject({ REQUESTS_IN_FLIGHT_MAX: 8, REQUEST_WAIT_MAX_MS: 150 })
    expect(parseNodeConfig({ REQUESTS_IN_FLIGHT_MAX: '0' }).REQUESTS_IN_FLIGHT_MAX).toBe(0)
  })
})

describe('a busy service answers 503 with Retry-After', () => {
  async function busyApp() {
    const verified: string[] = []
    const t = await createTestApp({
      deliveryVerifier: {
        verify: async (_s, body) => {
          verified.push(body)
          return false
        },
      },
    })
    const admission = createAdmission({ maxInFlight: 1, maxWaitMs: 50 })
    const app = createApp({ ...appOptions(t.deps, nodeClientIp(true)), admission })
    const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
      app.request(path, {
        method,
        headers: {
          'x-forwarded-for': t.ip,
          authorization: `Bearer ${t.token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      })
    const account = await addSandboxAccount(t.deps.db, t.deps.cipher, {
      workspaceId: t.workspaceId,
      platform: 'CHAT_NET',
      username: 'busy',
    })
    const draft = { type: 'IMAGE', accountIds: [account.id], mediaIds: [], action: 'draft', caption: 'Busy day' }
    return { t, admission, call, draft, verified }
  }

  it('refuses a create while the bound is reached, before it wrote anything, and takes it once there is room', async () => {
    const { admission, call, draft } = await busyApp()
    const held = await admission.enter()
    const refused = await call('POST', '/v1/posts', draft)
    expect(refused.status).toBe(503)
    expect(refused.headers.get('retry-after')).toBe('1')
    const body = (await refused.json()) as { error: Record<string, unknown> }
    expect(body.error).toMatchObject({ code: 'service_unavailable', message: expect.stringContaining('1 s') })
    expect(body.error.requestId).toBe(refused.headers.get('x-request-id'))
    // A request waiting for its turn gets it when one ends within the wait.
    const waiting = call('POST', '/v1/posts', draft)
    setTimeout(held!, 10)
    const created = await waiting
    expect(created.status).toBe(200)
    const list = (await (await call('GET', '/v1/posts')).json()) as Array<{ caption: string }>
    // One post: the refused create left nothing behind.
    expect(list.map((p) => p.caption)).toEqual(['Busy day'])
    expect(admission.stats()).toMatchObject({ inFlight: 0, refused: 1 })
  })

  it('never refuses the signed callbacks of the delivery service', async () => {
    const { admission, call, verified } = await busyApp()
    const held = await admission.enter()
    const res = await call('POST', '/internal/publish', { targetId: 'tgt_x' }, { 'upstash-signature': 'x' })
    // Answered by the callback's own check (this verifier says no), not by the bound.
    expect(res.status).toBe(401)
    expect(verified).toHaveLength(1)
    held!()
  })

  it('documents 503 with Retry-After on the operations', async () => {
    const { call } = await busyApp()
    const doc = (await (await call('GET', '/v1/openapi.json')).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, { headers: Record<string, unknown> }> }>>
    }
    const answer = doc.paths['/v1/posts']!.post!.responses['503']!
    expect(Object.keys(answer.headers)).toContain('Retry-After')
  })
})
