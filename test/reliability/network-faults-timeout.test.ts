/**
 * Network faults over real publishing, part 3: a create call that hangs. The network makes the post
 * and never answers; the adapter gives up at its own deadline (DEFAULT_TIMEOUT_MS in
 * src/networks/http.ts, 30 s of real time: nothing is shortened or patched), and the next attempt
 * must not post blindly again. The three networks wait side by side, so the file takes one deadline.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { DEFAULT_TIMEOUT_MS } from '../../src/networks/http'
import { createLeakWatch } from './support/leaks'
import { federated, messaging, microblog, published, tally } from './support/fault-harness'

const watch = createLeakWatch()
const fakes: Array<{ injected: unknown[] }> = []
const DEADLINE = `did not answer within ${DEFAULT_TIMEOUT_MS / 1000} s`

afterAll(() => {
  tally.faults = fakes.reduce((n, f) => n + f.injected.length, 0)
  expect(watch.leaks()).toEqual([])
  console.log(
    `network-faults-timeout: faults injected=${tally.faults} targets=${tally.targets} ` +
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

describe.concurrent('a create call that never answers', () => {
  it('MICROBLOG_NET: finds the post in the timeline, one post', async () => {
    const h = await microblog(watch)
    fakes.push(h.fake)
    h.fake.fault('POST', '/2/tweets', { kind: 'hang' }, { after: true })
    const post = await h.publish({ caption: 'hung', accountIds: [h.account.id] })
    expect(await h.run()).toEqual(['retrying'])
    expect((await h.post(post.id)).targets[0].error).toMatchObject({ code: 'transient', message: /did not answer/ })
    expect((await h.post(post.id)).targets[0].error.message).toContain(DEADLINE)
    expect((await settle(h, post.id)).targets[0].status).toBe('PUBLISHED')
    expect(h.fake.calls('POST', '/2/tweets')).toHaveLength(1)
    expect(published(h.fake.tweets.length)).toBe(1)
    await h.finish(post.id)
  })

  it('FEDERATED_NET: sends again under the same Idempotency-Key, one status', async () => {
    const h = await federated(watch)
    fakes.push(h.net)
    h.net.fault('POST', '/api/v1/statuses', { kind: 'hang' }, { after: true })
    const post = await h.publish({ caption: 'hung', accountIds: [h.account.id] })
    expect(await h.run()).toEqual(['retrying'])
    expect((await h.post(post.id)).targets[0].error.message).toContain(DEADLINE)
    expect((await settle(h, post.id)).targets[0].status).toBe('PUBLISHED')
    expect(published(h.fake.state.statuses.length)).toBe(1)
    await h.finish(post.id)
  })

  it('MESSAGING_NET: never sends twice; FAILED, asking the user to check the chat', async () => {
    const h = await messaging(watch)
    fakes.push(h.fake)
    h.fake.fault('POST', /\/sendMessage$/, { kind: 'hang' }, { after: true })
    const post = await h.publish({ caption: 'hung', accountIds: [h.account.id] })
    expect(await h.run()).toEqual(['retrying'])
    const done = await settle(h, post.id)
    expect(done.targets[0].error).toMatchObject({ code: 'unconfirmed', message: /check the chat/, retryable: true })
    expect(h.fake.calls('POST', /\/sendMessage$/)).toHaveLength(1)
    expect(published(h.fake.messages.length)).toBe(1)
    await h.finish(post.id)
  })
})
