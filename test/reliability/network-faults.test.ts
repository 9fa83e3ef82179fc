/**
 * Network faults over real publishing (issue: "network fakes injecting 5xx, 429 with Retry-After,
 * timeouts, truncated and malformed bodies, expired tokens"), part 1: MICROBLOG_NET (OAuth 2 with
 * token renewal; no idempotency key, a lost answer is looked up in the timeline) and FEDERATED_NET
 * (Idempotency-Key). Faults are injected at the loopback fakes (fake-server.ts `fault`); the
 * engine, the adapters and their HTTP are the real ones, driven by the test's clock. What a user
 * relies on: PUBLISHED exactly once after transient faults (posts counted at the fake), never
 * before the wait a network asked for, a lost answer never posted twice, clear errors, no 5xx
 * from the API and nothing secret in any answer or log line.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { createLeakWatch } from './support/leaks'
import { accountRow, federated, microblog, published, tally, targetRow } from './support/fault-harness'

const watch = createLeakWatch()
const CREATE = '/2/tweets'
const TOKEN = '/2/oauth2/token'
const STATUSES = '/api/v1/statuses'
const fakes: Array<{ injected: unknown[] }> = []

afterAll(() => {
  tally.faults = fakes.reduce((n, f) => n + f.injected.length, 0)
  expect(watch.leaks()).toEqual([])
  console.log(
    `network-faults: faults injected=${tally.faults} targets=${tally.targets} duplicates=${tally.duplicates} ` +
      `api 5xx=${tally.serverErrors} scanned=${watch.scanned().texts}`,
  )
  expect(tally.duplicates).toBe(0)
})

/** Runs the due deliveries, a minute of the test's clock at a time, until the post settles. */
async function settle(h: { later(sec: number): Promise<string[]>; post(id: string): Promise<any> }, id: string) {
  for (let i = 0; i < 15; i++) {
    const post = await h.post(id)
    if (post.status === 'PUBLISHED' || post.status === 'FAILED') return post
    await h.later(60)
  }
  return h.post(id)
}

describe('MICROBLOG_NET under network faults', () => {
  it('publishes once after a 503 and an HTML 502 page on the create call', async () => {
    const h = await microblog(watch)
    fakes.push(h.fake)
    h.fake.fault('POST', CREATE, { kind: 'status', status: 503 })
    h.fake.fault('POST', CREATE, { kind: 'html', status: 502 })
    const post = await h.publish({ caption: 'five hundreds', accountIds: [h.account.id] })
    expect(await h.run()).toEqual(['retrying'])
    const waiting = (await h.post(post.id)).targets[0]
    expect(waiting).toMatchObject({ status: 'PENDING', error: { code: 'transient', retryable: true } })
    const done = await settle(h, post.id)
    expect(done.targets[0]).toMatchObject({ status: 'PUBLISHED', error: null })
    expect(published(h.fake.tweets.length)).toBe(1)
    await h.finish(post.id)
  })

  it('honours Retry-After on a 429: no attempt before the wait, then one post', async () => {
    const h = await microblog(watch)
    fakes.push(h.fake)
    h.fake.fault('POST', CREATE, { kind: 'rate-limit', retryAfterSec: 120 })
    const post = await h.publish({ caption: 'slow down', accountIds: [h.account.id] })
    const start = h.clock.now().getTime()
    expect(await h.run()).toEqual(['retrying'])
    const row = await targetRow(h.t, post.targets[0].id)
    expect(row.dueAt!.getTime()).toBeGreaterThanOrEqual(start + 120_000)
    expect(h.t.publishQueue.deliveries.every((d) => d.notBefore.getTime() >= start + 120_000)).toBe(true)
    expect((await h.post(post.id)).targets[0].error).toMatchObject({ code: 'rate_limited', retryable: true })
    expect(await h.later(119)).toEqual([])
    expect(h.fake.calls('POST', CREATE)).toHaveLength(1)
    expect(await h.later(2)).toEqual(['published'])
    expect(h.fake.calls('POST', CREATE)).toHaveLength(2)
    expect(published(h.fake.tweets.length)).toBe(1)
    await h.finish(post.id)
  })

  it('finds a post whose answer was cut off (truncated, then malformed) instead of posting it twice', async () => {
    const h = await microblog(watch)
    fakes.push(h.fake)
    h.fake.fault('POST', CREATE, { kind: 'truncate' }, { after: true })
    const first = await h.publish({ caption: 'cut off once', accountIds: [h.account.id] })
    expect(await h.run()).toEqual(['retrying'])
    expect((await h.post(first.id)).targets[0].error.message).toMatch(/could not be reached/)
    expect((await settle(h, first.id)).targets[0].status).toBe('PUBLISHED')

    h.fake.fault('POST', CREATE, { kind: 'malformed' }, { after: true })
    const second = await h.publish({ caption: 'garbled once', accountIds: [h.account.id] })
    // A garbled success is unconfirmed: the timeline is asked at once, and has it.
    expect(await h.run()).toEqual(['published'])
    expect((await h.post(second.id)).targets[0]).toMatchObject({ status: 'PUBLISHED', error: null })
    expect(h.fake.calls('POST', CREATE)).toHaveLength(2)
    expect(published(h.fake.tweets.length, 2)).toBe(2)
    await h.finish(first.id)
    await h.finish(second.id)
  })

  it('renews an access token the network refuses, once, and publishes', async () => {
    const h = await microblog(watch)
    fakes.push(h.fake)
    h.fake.expireToken('access-1')
    const post = await h.publish({ caption: 'token refused', accountIds: [h.account.id] })
    expect(await h.run()).toEqual(['published'])
    expect(h.fake.calls('POST', TOKEN)).toHaveLength(1)
    expect(published(h.fake.tweets.length)).toBe(1)
    expect((await accountRow(h.t, h.account.id)).status).toBe('ACTIVE')
    watch.secret(...h.fake.validTokens, ...h.fake.validRefresh)
    await h.finish(post.id)
  })

  it('keeps the account ACTIVE when the token endpoint itself fails (503, garbled), and publishes later', async () => {
    const h = await microblog(watch)
    fakes.push(h.fake)
    h.fake.expireToken('access-1')
    h.fake.fault('POST', TOKEN, { kind: 'status', status: 503 })
    h.fake.fault('POST', TOKEN, { kind: 'malformed' })
    const post = await h.publish({ caption: 'token endpoint down', accountIds: [h.account.id] })
    expect(await h.run()).toEqual(['retrying'])
    expect((await h.post(post.id)).targets[0].error).toMatchObject({ code: 'transient', retryable: true })
    expect((await accountRow(h.t, h.account.id)).status).toBe('ACTIVE')
    const done = await settle(h, post.id)
    expect(done.targets[0].status).toBe('PUBLISHED')
    expect(h.fake.calls('POST', TOKEN)).toHaveLength(3)
    expect((await accountRow(h.t, h.account.id)).status).toBe('ACTIVE')
    expect(published(h.fake.tweets.length)).toBe(1)
    watch.secret(...h.fake.validTokens, ...h.fake.validRefresh)
    await h.finish(post.id)
  })

  it('marks the account EXPIRED with a clear error when the renewal is refused too', async () => {
    const h = await microblog(watch)
    fakes.push(h.fake)
    h.fake.expireToken('access-1')
    h.fake.validRefresh.clear()
    const post = await h.publish({ caption: 'token gone', accountIds: [h.account.id] })
    expect(await h.run()).toEqual(['failed'])
    expect(h.fake.calls('POST', TOKEN)).toHaveLength(1)
    expect(h.fake.tweets).toHaveLength(0)
    const done = await h.finish(post.id)
    expect(done.targets[0]).toMatchObject({
      status: 'FAILED',
      error: { code: 'auth_expired', retryable: true, message: expect.stringMatching(/reconnect the account/) },
    })
    const account = await accountRow(h.t, h.account.id)
    expect(account.status).toBe('EXPIRED')
    expect(account.statusMessage).toMatch(/token expired: reconnect the account/)
    const listed = await h.api('GET', '/v1/accounts')
    expect(listed.status).toBe(200)
  })
})

describe('FEDERATED_NET under network faults', () => {
  it('retries a cut-off or garbled create with the same Idempotency-Key: one status', async () => {
    const h = await federated(watch)
    fakes.push(h.net)
    h.net.fault('POST', STATUSES, { kind: 'truncate' }, { after: true })
    h.net.fault('POST', STATUSES, { kind: 'malformed' }, { after: true })
    const post = await h.publish({ caption: 'idempotent', accountIds: [h.account.id] })
    expect(await h.run()).toEqual(['retrying'])
    const done = await settle(h, post.id)
    expect(done.targets[0].status).toBe('PUBLISHED')
    const keys = h.net.calls('POST', STATUSES).map((r) => r.headers['idempotency-key'])
    expect(keys).toHaveLength(3)
    expect(new Set(keys).size).toBe(1)
    expect(published(h.fake.state.statuses.length)).toBe(1)
    await h.finish(post.id)
  })

  it('publishes once after a connection reset and a proxy error page', async () => {
    const h = await federated(watch)
    fakes.push(h.net)
    h.net.fault('POST', STATUSES, { kind: 'reset' })
    h.net.fault('POST', STATUSES, { kind: 'html', status: 502 })
    const post = await h.publish({ caption: 'reset', accountIds: [h.account.id] })
    const done = await settle(h, post.id)
    expect(done.targets[0]).toMatchObject({ status: 'PUBLISHED', attempts: 3 })
    expect(published(h.fake.state.statuses.length)).toBe(1)
    await h.finish(post.id)
  })

  it('honours a Retry-After given as an HTTP date', async () => {
    const h = await federated(watch)
    fakes.push(h.net)
    const start = h.clock.now().getTime()
    const retryAfter = new Date(start + 300_000).toUTCString()
    h.net.fault('POST', STATUSES, { kind: 'status', status: 429, headers: { 'retry-after': retryAfter } })
    const post = await h.publish({ caption: 'dated', accountIds: [h.account.id] })
    expect(await h.run()).toEqual(['retrying'])
    expect((await targetRow(h.t, post.targets[0].id)).dueAt!.getTime()).toBeGreaterThanOrEqual(start + 300_000)
    expect(await h.later(299)).toEqual([])
    expect(h.net.calls('POST', STATUSES)).toHaveLength(1)
    expect(await h.later(1)).toEqual(['published'])
    expect(published(h.fake.state.statuses.length)).toBe(1)
    await h.finish(post.id)
  })

  it('gives up after the round of attempts on a network that keeps failing, saying so', async () => {
    const h = await federated(watch)
    fakes.push(h.net)
    h.net.fault('POST', STATUSES, { kind: 'status', status: 500 }, { times: 10 })
    const post = await h.publish({ caption: 'down', accountIds: [h.account.id] })
    const done = await settle(h, post.id)
    expect(done.status).toBe('FAILED')
    expect(done.targets[0]).toMatchObject({
      status: 'FAILED',
      attempts: 4,
      error: { code: 'transient', retryable: true, message: expect.stringMatching(/gave up after 4 attempts/) },
    })
    expect(h.net.calls('POST', STATUSES)).toHaveLength(4)
    expect(h.fake.state.statuses).toHaveLength(0)
    await h.finish(post.id)
  })
})
