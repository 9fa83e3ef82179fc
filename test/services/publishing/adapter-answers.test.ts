import { describe, expect, it } from 'vitest'
import type { NetworkAdapter } from '../../../src/networks/adapter'
import { NetworkFailure } from '../../../src/networks/http'
import type { NetworkRegistry } from '../../../src/networks/registry'
import { runDue } from '../../support/engine'
import { account, fixedClock } from '../../support/fixtures'
import { createTestApp } from '../../support/test-app'

/**
 * A network that keeps answering "still processing" (a video job that never finishes): the
 * engine checks back as asked, then gives up after `maxPendingSec` with a message telling the
 * user what to do, instead of leaving the post pending for ever.
 */
describe('publishing engine: a network that never finishes processing', () => {
  it('checks back as asked, then ends FAILED unconfirmed after the pending limit', async () => {
    const clock = fixedClock('2026-11-21T10:00:00Z')
    let checks = 0
    const adapter: NetworkAdapter = {
      publish: async () => ({ status: 'pending', state: { job: 'j1' }, checkAfterSec: 1800 }),
      checkStatus: async (input) => {
        checks++
        expect(input.progress.pending).toEqual({ job: 'j1' })
        return { status: 'pending', state: { job: 'j1' }, checkAfterSec: 1800 }
      },
    }
    const registry: NetworkRegistry = { adapterFor: () => adapter, baseUrlFor: () => 'http://network.invalid', fetch }
    const t = await createTestApp({
      clock,
      publishing: { maxPendingSec: 3 * 3600, random: () => 0.5 },
      networkRegistry: registry,
    })
    const a = await account(t, 'MICROBLOG_NET')
    const created = await (
      await t.call('POST', '/v1/posts', {
        body: { type: 'IMAGE', mediaIds: [], caption: 'Slow video', accountIds: [a.id], action: 'now' },
      })
    ).json()

    await runDue(t, t.publishQueue)
    const read = async () => (await t.call('GET', `/v1/posts/${created.id}`)).json()
    expect((await read()).targets[0]).toMatchObject({ status: 'PENDING', error: null })
    for (let halfHour = 0; halfHour < 6; halfHour++) {
      clock.set(new Date(clock.now().getTime() + 1800_000).toISOString())
      await runDue(t, t.publishQueue)
    }
    // Checked every half hour; at three hours it is still within the limit.
    expect(checks).toBe(6)
    expect((await read()).targets[0].status).toBe('PENDING')
    // The next answer, past the limit, fails the target.
    clock.set(new Date(clock.now().getTime() + 1800_000).toISOString())
    await runDue(t, t.publishQueue)
    expect(checks).toBe(7)
    const after = await read()
    expect(after.status).toBe('FAILED')
    expect(after.targets[0]).toMatchObject({
      status: 'FAILED',
      error: {
        code: 'unconfirmed',
        retryable: true,
        message: expect.stringContaining('still processing this post after 3 hours'),
      },
    })
  })
})

describe('publishing engine: a failure an adapter throws', () => {
  it('keeps the class and words of a thrown NetworkFailure (a refusal fails at once, not after five transient retries)', async () => {
    const clock = fixedClock('2026-11-21T10:00:00Z')
    let calls = 0
    const adapter: NetworkAdapter = {
      publish: async () => {
        calls++
        throw new NetworkFailure(
          'rejected',
          'MICROBLOG_NET: You are not allowed to create a Tweet with duplicate content.',
        )
      },
    }
    const t = await createTestApp({
      clock,
      networkRegistry: { adapterFor: () => adapter, baseUrlFor: () => 'http://network.invalid', fetch },
    })
    const a = await account(t, 'MICROBLOG_NET')
    const created = await (
      await t.call('POST', '/v1/posts', {
        body: { type: 'IMAGE', mediaIds: [], caption: 'Again', accountIds: [a.id], action: 'now' },
      })
    ).json()
    await runDue(t, t.publishQueue)
    const after = await (await t.call('GET', `/v1/posts/${created.id}`)).json()
    expect(calls).toBe(1)
    expect(after.targets[0]).toMatchObject({
      status: 'FAILED',
      error: {
        code: 'rejected',
        retryable: false,
        message: 'MICROBLOG_NET: You are not allowed to create a Tweet with duplicate content.',
      },
    })
  })
})
