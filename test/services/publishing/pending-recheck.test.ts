import { describe, expect, it, vi } from 'vitest'
import { createInProcessPublishQueue, type InProcessPublishQueue } from '../../../src/infra/publish-queue/in-process'
import type { NetworkAdapter } from '../../../src/networks/adapter'
import { publishTarget } from '../../../src/services/publishing/publish-target'
import { account } from '../../support/fixtures'
import { createTestApp } from '../../support/test-app'

const CHECK_AFTER_SEC = 1

/**
 * A network that is still processing (a video job, a container) asks to be checked again in
 * `checkAfterSec`. With the Node runtime's own queue and real timers, each check must run at that
 * time, not a sweep later: the re-check is handed over while the delivery that asked for it is
 * still running, and must not be taken for a duplicate of it.
 */
describe('publishing engine: a network still processing', () => {
  it('checks back at the time the network asked, on real timers, until it is published', async () => {
    const checks: number[] = []
    let askedAt = 0
    const adapter: NetworkAdapter = {
      publish: async () => {
        askedAt = Date.now()
        return { status: 'pending', state: { job: 'j1' }, checkAfterSec: CHECK_AFTER_SEC }
      },
      checkStatus: async () => {
        checks.push(Date.now() - askedAt)
        askedAt = Date.now()
        return checks.length < 3
          ? { status: 'pending', state: { job: 'j1' }, checkAfterSec: CHECK_AFTER_SEC }
          : { status: 'published', platformPostId: 'j1', permalink: 'https://network.invalid/j1' }
      },
    }
    let queue: InProcessPublishQueue | undefined
    const t = await createTestApp({
      networkRegistry: { adapterFor: () => adapter, baseUrlFor: () => 'http://network.invalid', fetch },
      publishQueue: { enqueue: async (deliveries) => queue?.enqueue(deliveries) },
    })
    queue = createInProcessPublishQueue({
      run: (d) => publishTarget(t.deps, d),
      logger: t.deps.logger,
      clock: t.deps.clock,
    })
    try {
      const a = await account(t, 'MICROBLOG_NET')
      const created = await (
        await t.call('POST', '/v1/posts', {
          body: { type: 'IMAGE', accountIds: [a.id], mediaIds: [], action: 'now', caption: 'a video' },
        })
      ).json()
      // Real timers: the checks are a second apart, so this polls for the outcome (bounded).
      await vi.waitFor(
        async () => expect((await (await t.call('GET', `/v1/posts/${created.id}`)).json()).status).toBe('PUBLISHED'),
        { timeout: 10_000, interval: 100 },
      )
      expect(checks).toHaveLength(3)
      // Each check runs within a second of the time asked for (the sweep would be a minute or more).
      for (const waited of checks) {
        expect(waited).toBeGreaterThanOrEqual(CHECK_AFTER_SEC * 1000 - 50)
        expect(waited).toBeLessThan(CHECK_AFTER_SEC * 1000 + 1_000)
      }
    } finally {
      await queue.close()
    }
  })
})
