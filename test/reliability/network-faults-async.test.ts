/**
 * Network faults over real publishing, part 2: VIDEOSHARE_NET (OAuth 2 with token renewal and
 * asynchronous processing: a resumable upload, then status polls) and MESSAGING_NET (a bot token;
 * no idempotency key and no way to read a chat back, so a send whose answer was lost is left to
 * the user, never sent again). Same promises as part 1 (network-faults.test.ts).
 */
import { afterAll, describe, expect, it } from 'vitest'
import { realAccount } from '../support/fixtures'
import { createLeakWatch } from './support/leaks'
import { accountRow, messaging, published, tally, targetRow, videoShare } from './support/fault-harness'

const watch = createLeakWatch()
const START = '/upload/youtube/v3/videos'
const VIDEOS = '/youtube/v3/videos'
const fakes: Array<{ injected: unknown[] }> = []

afterAll(() => {
  tally.faults = fakes.reduce((n, f) => n + f.injected.length, 0)
  expect(watch.leaks()).toEqual([])
  console.log(
    `network-faults-async: faults injected=${tally.faults} targets=${tally.targets} ` +
      `duplicates=${tally.duplicates} api 5xx=${tally.serverErrors} scanned=${watch.scanned().texts}`,
  )
  expect(tally.duplicates).toBe(0)
})

async function settle(h: { later(sec: number): Promise<string[]>; post(id: string): Promise<any> }, id: string) {
  for (let i = 0; i < 15; i++) {
    const post = await h.post(id)
    if (post.status === 'PUBLISHED' || post.status === 'FAILED') return post
    await h.later(60)
  }
  return h.post(id)
}

describe('VIDEOSHARE_NET under network faults', () => {
  it('starts the upload again after a 503 and publishes one video when processing ends', async () => {
    const h = await videoShare(watch)
    fakes.push(h.fake)
    h.fake.fault('POST', START, { kind: 'status', status: 503 })
    const post = await h.publishVideo('After a 503')
    expect(await h.run()).toEqual(['retrying'])
    expect((await h.post(post.id)).targets[0].error).toMatchObject({ code: 'transient', retryable: true })
    expect((await settle(h, post.id)).targets[0].status).toBe('PUBLISHED')
    expect(h.fake.state.sessions).toHaveLength(1)
    expect(published(h.fake.state.videos.length)).toBe(1)
    await h.finish(post.id)
  })

  it('asks the upload session after a cut-off answer to the last chunk instead of uploading again', async () => {
    const h = await videoShare(watch)
    fakes.push(h.fake)
    h.fake.fault('PUT', START, { kind: 'truncate' }, { after: true })
    const post = await h.publishVideo('Cut off')
    expect(await h.run()).toEqual(['retrying'])
    expect(h.fake.state.videos).toHaveLength(1)
    expect((await settle(h, post.id)).targets[0].status).toBe('PUBLISHED')
    // The second attempt asked the session (an empty PUT `bytes */total`) and found the video.
    const asked = h.fake.calls('PUT', START).map((r) => r.headers['content-range'])
    expect(asked).toEqual(['bytes 0-299999/300000', 'bytes */300000'])
    expect(h.fake.state.sessions).toHaveLength(1)
    expect(published(h.fake.state.videos.length)).toBe(1)
    await h.finish(post.id)
  })

  it('honours Retry-After on a 429 to a processing check, and reads a garbled answer as transient', async () => {
    const h = await videoShare(watch)
    fakes.push(h.fake)
    h.fake.state.processingPolls = 3
    const post = await h.publishVideo('Processing')
    expect(await h.run()).toEqual(['pending'])
    h.fake.fault('GET', VIDEOS, { kind: 'rate-limit', retryAfterSec: 300 })
    const asked = h.clock.now().getTime()
    expect(await h.later(30)).toEqual(['retrying'])
    const row = await targetRow(h.t, post.targets[0].id)
    expect(row.dueAt!.getTime()).toBeGreaterThanOrEqual(asked + 330_000)
    const checks = h.fake.calls('GET', VIDEOS).length
    expect(await h.later(299)).toEqual([])
    expect(h.fake.calls('GET', VIDEOS)).toHaveLength(checks)
    h.fake.fault('GET', VIDEOS, { kind: 'malformed' })
    expect(await h.later(2)).toEqual(['retrying'])
    expect((await h.post(post.id)).targets[0].error.message).toMatch(/not JSON/)
    expect((await settle(h, post.id)).targets[0].status).toBe('PUBLISHED')
    expect(published(h.fake.state.videos.length)).toBe(1)
    await h.finish(post.id)
  })

  it('renews a token refused while processing, once, and publishes', async () => {
    const h = await videoShare(watch)
    fakes.push(h.fake)
    const post = await h.publishVideo('Token renewed')
    expect(await h.run()).toEqual(['pending'])
    h.fake.expireToken()
    expect((await settle(h, post.id)).targets[0].status).toBe('PUBLISHED')
    expect(h.fake.calls('POST', '/token')).toHaveLength(1)
    expect((await accountRow(h.t, h.account.id)).status).toBe('ACTIVE')
    expect(published(h.fake.state.videos.length)).toBe(1)
    watch.secret(h.fake.state.accessToken)
    await h.finish(post.id)
  })
})

describe('MESSAGING_NET under network faults', () => {
  it('honours the Bot API retry_after of a 429, then sends once', async () => {
    const h = await messaging(watch)
    fakes.push(h.fake)
    const body = { ok: false, error_code: 429, description: 'Too Many Requests: retry after 45' }
    h.fake.fault('POST', /\/sendMessage$/, {
      kind: 'rate-limit',
      retryAfterSec: 45,
      json: { ...body, parameters: { retry_after: 45 } },
    })
    const post = await h.publish({ caption: 'hello', accountIds: [h.account.id] })
    const start = h.clock.now().getTime()
    expect(await h.run()).toEqual(['retrying'])
    expect((await targetRow(h.t, post.targets[0].id)).dueAt!.getTime()).toBeGreaterThanOrEqual(start + 45_000)
    expect(await h.later(44)).toEqual([])
    expect(await h.later(1)).toEqual(['published'])
    expect(published(h.fake.messages.length)).toBe(1)
    await h.finish(post.id)
  })

  it('honours a bare Retry-After header on a 429 without the Bot API body (a proxy in front of it)', async () => {
    const h = await messaging(watch)
    fakes.push(h.fake)
    h.fake.fault('POST', /\/sendMessage$/, { kind: 'rate-limit', retryAfterSec: 90 })
    const post = await h.publish({ caption: 'bare 429', accountIds: [h.account.id] })
    const start = h.clock.now().getTime()
    expect(await h.run()).toEqual(['retrying'])
    expect((await h.post(post.id)).targets[0].error).toMatchObject({ code: 'rate_limited', retryable: true })
    expect((await targetRow(h.t, post.targets[0].id)).dueAt!.getTime()).toBeGreaterThanOrEqual(start + 90_000)
    expect(await h.later(89)).toEqual([])
    expect(await h.later(1)).toEqual(['published'])
    expect(published(h.fake.messages.length)).toBe(1)
    await h.finish(post.id)
  })

  it('never sends again after a cut-off answer: the user is told to check the chat', async () => {
    const h = await messaging(watch)
    fakes.push(h.fake)
    h.fake.fault('POST', /\/sendMessage$/, { kind: 'truncate' }, { after: true })
    const post = await h.publish({ caption: 'lost answer', accountIds: [h.account.id] })
    expect(await h.run()).toEqual(['retrying'])
    const done = await settle(h, post.id)
    expect(done.targets[0]).toMatchObject({
      status: 'FAILED',
      error: {
        code: 'unconfirmed',
        message: expect.stringMatching(/check the chat, and use retry only if/),
        retryable: true,
      },
    })
    expect(h.fake.calls('POST', /\/sendMessage$/)).toHaveLength(1)
    expect(published(h.fake.messages.length)).toBe(1)
    await h.finish(post.id)
  })

  it('fails clearly, without a second send, after a proxy error page or a garbled answer', async () => {
    const h = await messaging(watch)
    fakes.push(h.fake)
    h.fake.fault('POST', /\/sendMessage$/, { kind: 'html', status: 502 })
    h.fake.fault('POST', /\/sendMessage$/, { kind: 'malformed' }, { after: true })
    const first = await h.publish({ caption: 'proxy page', accountIds: [h.account.id] })
    expect(await h.run()).toEqual(['retrying'])
    expect((await h.post(first.id)).targets[0].error.message).toBe('MESSAGING_NET: HTTP 502')
    expect((await settle(h, first.id)).targets[0].error.code).toBe('unconfirmed')
    const second = await h.publish({ caption: 'garbled', accountIds: [h.account.id] })
    // A garbled success is unconfirmed at once: the Bot API cannot be asked, so the user checks.
    expect(await h.run()).toEqual(['failed'])
    expect((await h.post(second.id)).targets[0].error).toMatchObject({
      code: 'unconfirmed',
      message: expect.stringMatching(/not JSON .*check the account/),
    })
    expect(h.fake.calls('POST', /\/sendMessage$/)).toHaveLength(2)
    expect(published(h.fake.messages.length, 1)).toBe(1)
    await h.finish(first.id)
    await h.finish(second.id)
  })

  it('marks the account EXPIRED with a clear error when the bot token is refused (nothing to renew)', async () => {
    const h = await messaging(watch)
    fakes.push(h.fake)
    const stale = '999999:STALE-token_revoked'
    watch.secret(stale)
    const revoked = await realAccount(h.t, 'MESSAGING_NET', 'BOT_TOKEN', { botToken: stale, chatId: '-100123' }, 'x')
    const post = await h.publish({ caption: 'revoked', accountIds: [revoked.id] })
    expect(await h.run()).toEqual(['failed'])
    const done = await h.finish(post.id)
    expect(done.targets[0]).toMatchObject({
      status: 'FAILED',
      error: { code: 'auth_expired', retryable: true, message: expect.stringMatching(/reconnect the account/) },
    })
    expect((await accountRow(h.t, revoked.id)).status).toBe('EXPIRED')
    expect(h.fake.messages).toHaveLength(0)
  })
})
