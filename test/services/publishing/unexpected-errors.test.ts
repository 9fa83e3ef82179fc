import { describe, expect, it } from 'vitest'
import type { NetworkAdapter } from '../../../src/networks/adapter'
import { claimTarget } from '../../../src/services/publishing/claim'
import { sweepTargets } from '../../../src/services/publishing/sweep'
import { runDue } from '../../support/engine'
import { account, fixedClock } from '../../support/fixtures'
import { createTestApp } from '../../support/test-app'

/**
 * An adapter's bug (a TypeError, not a classified `NetworkFailure`) goes on up to the engine. The
 * engine logs it once with ids and the error's class only (its text might quote a token), and
 * retries the target like a transient failure, saying the failure was on our side.
 */
const SECRET_TEXT = 'x is undefined (token sk_live_SECRET)'
const OUR_SIDE = 'MICROBLOG_NET publish failed on our side (unexpected error); retrying'

async function setup(adapter: NetworkAdapter) {
  const clock = fixedClock('2026-11-21T10:00:00Z')
  const lines: string[] = []
  const t = await createTestApp({
    clock,
    logLines: lines,
    publishing: { maxAttempts: 3, backoffBaseSec: 10, leaseSec: 60, random: () => 0.5 },
    networkRegistry: { adapterFor: () => adapter, baseUrlFor: () => 'http://network.invalid', fetch },
  })
  const a = await account(t, 'MICROBLOG_NET')
  const created = await (
    await t.call('POST', '/v1/posts', {
      body: { type: 'IMAGE', mediaIds: [], caption: 'Hello', accountIds: [a.id], action: 'now' },
    })
  ).json()
  const read = async () => (await t.call('GET', `/v1/posts/${created.id}`)).json()
  const logged = (event: string) => lines.map((l) => JSON.parse(l)).filter((l) => l.event === event)
  return { t, clock, lines, postId: created.id as string, read, logged }
}

const later = (clock: ReturnType<typeof fixedClock>, seconds: number) =>
  clock.set(new Date(clock.now().getTime() + seconds * 1000).toISOString())

describe('publishing engine: an unexpected error an adapter throws', () => {
  it('is logged with ids and class only, retried as transient with a message on our side, then FAILED after maxAttempts', async () => {
    let calls = 0
    const { t, clock, lines, postId, read, logged } = await setup({
      publish: async () => {
        calls++
        throw new TypeError(SECRET_TEXT)
      },
    })

    expect(await runDue(t, t.publishQueue)).toEqual(['retrying'])
    const first = await read()
    expect(first.status).toBe('PUBLISHING')
    expect(first.targets[0]).toMatchObject({
      status: 'PENDING',
      attempts: 1,
      error: { code: 'transient', message: OUR_SIDE, retryable: true },
    })
    const targetId = first.targets[0].id
    expect(logged('publish_unexpected_error')).toEqual([
      {
        time: expect.any(String),
        level: 'error',
        event: 'publish_unexpected_error',
        targetId,
        postId,
        platform: 'MICROBLOG_NET',
        errorClass: 'TypeError',
      },
    ])

    // The backoff (10 s, then 20 s), like any transient failure; the third attempt is the last.
    later(clock, 10)
    expect(await runDue(t, t.publishQueue)).toEqual(['retrying'])
    later(clock, 20)
    expect(await runDue(t, t.publishQueue)).toEqual(['failed'])
    const after = await read()
    expect(calls).toBe(3)
    expect(after.status).toBe('FAILED')
    expect(after.targets[0]).toMatchObject({
      status: 'FAILED',
      attempts: 3,
      error: { code: 'transient', message: `${OUR_SIDE} (gave up after 3 attempts)`, retryable: true },
    })
    expect(logged('publish_unexpected_error')).toHaveLength(3)
    // Nothing of the error's text, in the logs or in what the user reads.
    expect(lines.join('\n')).not.toContain('SECRET')
    expect(lines.join('\n')).not.toContain('x is undefined')
    expect(JSON.stringify(after)).not.toContain('SECRET')
  })

  it('from the sweep status check of an expired claim: logged, and the target ends unconfirmed as when the network cannot say', async () => {
    const { t, clock, lines, read, logged } = await setup({
      publish: async () => ({ status: 'published', platformPostId: 'n1', permalink: 'https://network.example/n1' }),
      checkStatus: async () => {
        throw new TypeError(SECRET_TEXT)
      },
    })
    // A claim whose publisher died: the lease runs out and the sweep asks the network.
    const [delivery] = t.publishQueue.deliveries
    expect(await claimTarget(t.deps.db, delivery!.targetId, delivery!.version, clock.now(), 60)).not.toBeNull()
    later(clock, 120)
    expect(await sweepTargets(t.deps, { workspaceId: t.workspaceId })).toMatchObject({ confirmed: 0, unconfirmed: 1 })

    const after = await read()
    expect(after.targets[0]).toMatchObject({ status: 'FAILED', error: { code: 'unconfirmed', retryable: true } })
    expect(logged('publish_unexpected_error')).toEqual([
      expect.objectContaining({ targetId: delivery!.targetId, platform: 'MICROBLOG_NET', errorClass: 'TypeError' }),
    ])
    expect(logged('sweep_target_failed')).toEqual([])
    expect(lines.join('\n')).not.toContain('SECRET')
  })
})
