/**
 * The in-process queue's results: the targets of one post that finish close together are written in
 * one transaction (whichever batch claimed them), each with its own answer, and an answer never
 * waits long for a sibling still at its network.
 */
import { eq, inArray } from 'drizzle-orm'
import { describe, expect, it, vi } from 'vitest'
import { posts, targets } from '../../../src/db/schema'
import type { Db } from '../../../src/db/types'
import { createRecordingPublishQueue } from '../../../src/infra/publish-queue/recording'
import type { PublishInput, PublishResult } from '../../../src/networks/adapter'
import { batchPublisher, publishTargets } from '../../../src/services/publishing/publish-batch'
import { fakeNetwork } from '../../support/engine'
import { account, fixedClock } from '../../support/fixtures'
import { createTestApp, type TestApp } from '../../support/test-app'

/** An app whose network answers each call with `answer(input, publish)` (`publish`: the fake network's own answer). */
async function setup(answer: (input: PublishInput, publish: () => Promise<PublishResult>) => Promise<PublishResult>) {
  const network = fakeNetwork()
  const registry = {
    ...network.registry,
    adapterFor: () => ({
      ...network.adapter,
      publish: (input: PublishInput) => answer(input, () => network.adapter.publish(input)),
    }),
  }
  const queue = createRecordingPublishQueue()
  const clock = fixedClock('2026-11-21T10:00:00Z')
  const t = await createTestApp({ clock, networkRegistry: registry, publishQueue: queue })
  const names = ['first', 'second', 'third', 'fourth']
  const accounts = await Promise.all(names.map((name) => account(t, 'CHAT_NET', name)))
  const res = await t.call('POST', '/v1/posts', {
    body: { type: 'IMAGE', mediaIds: [], caption: 'Hello', accountIds: accounts.map((a) => a.id), action: 'now' },
  })
  expect(res.status).toBe(200)
  const post = (await res.json()) as { id: string }
  const byAccount = new Map(
    (await t.deps.db.select().from(targets).where(eq(targets.postId, post.id))).map((r) => [r.accountId, r.id]),
  )
  const deliveries = queue.deliveries.map((d) => ({ targetId: d.targetId, version: d.version }))
  return { t, accounts, post, byAccount, deliveries }
}

/** The app's database, counting the transactions begun through it. */
function countingTransactions(t: TestApp) {
  const counter = { transactions: 0 }
  const db = new Proxy(t.deps.db, {
    get: (target, key, receiver) =>
      key === 'transaction'
        ? (...args: Parameters<Db['transaction']>) => {
            counter.transactions++
            return target.transaction(...args)
          }
        : Reflect.get(target, key, receiver),
  })
  return { deps: { ...t.deps, db }, counter }
}

/** A gate every call waits at until `count` calls have reached it. */
function gate(count: number) {
  let arrived = 0
  let open: () => void = () => {}
  const opened = new Promise<void>((r) => (open = r))
  const pass = async () => {
    if (++arrived === count) open()
    await opened
  }
  return Object.assign(pass, { arrived: () => arrived })
}

const rowsOf = async (t: TestApp, ids: string[]) =>
  new Map((await t.deps.db.select().from(targets).where(inArray(targets.id, ids))).map((r) => [r.id, r]))

describe('results of one post written together', () => {
  it('writes different answers of one post in one transaction, each as its own, leaving a claim taken over', async () => {
    const together = gate(4)
    let takeOver: (targetId: string) => Promise<void> = async () => {}
    const app = await setup(async (input, publish) => {
      const which = app.accounts.findIndex((a) => a.id === input.accountId)
      // The fourth's claim is taken over (a sweep gave it a new lease) while its call is in flight.
      if (which === 3) await takeOver(input.idempotencyKey)
      const answer: PublishResult =
        which === 1
          ? { status: 'failed', kind: 'transient', message: 'try later' }
          : which === 2
            ? { status: 'failed', kind: 'rejected', message: 'the network refused the post' }
            : await publish()
      // All four answer at the same moment.
      await together()
      return answer
    })
    const { t, accounts, post, byAccount } = app
    const newLease = new Date('2026-11-21T11:00:00Z')
    takeOver = async (targetId) => {
      await t.deps.db.update(targets).set({ leaseUntil: newLease }).where(eq(targets.id, targetId))
    }
    const { deps, counter } = countingTransactions(t)
    const outcomes = await Promise.all(publishTargets(deps, app.deliveries))
    const outcomeOf = new Map(app.deliveries.map((d, i) => [d.targetId, outcomes[i]]))
    const ids = accounts.map((a) => byAccount.get(a.id)!)
    expect(ids.map((id) => outcomeOf.get(id))).toEqual(['published', 'retrying', 'failed', 'skipped'])
    // The claim, then the four answers in one transaction.
    expect(counter.transactions).toBe(2)
    const rows = await rowsOf(t, ids)
    expect(rows.get(ids[0]!)).toMatchObject({ status: 'PUBLISHED', leaseUntil: null, error: null })
    expect(rows.get(ids[0]!)!.platformPostId).toMatch(/^fake_/)
    expect(rows.get(ids[1]!)).toMatchObject({
      status: 'PENDING',
      leaseUntil: null,
      error: { code: 'transient', message: 'try later', retryable: true },
    })
    expect(rows.get(ids[1]!)!.dueAt!.getTime()).toBeGreaterThan(t.deps.clock.now().getTime())
    expect(rows.get(ids[2]!)).toMatchObject({
      status: 'FAILED',
      error: { code: 'rejected', message: 'the network refused the post' },
    })
    expect(rows.get(ids[3]!)).toMatchObject({ status: 'PUBLISHING', leaseUntil: newLease, publishedAt: null })
    const [row] = await t.deps.db.select().from(posts).where(eq(posts.id, post.id))
    expect(row!.status).toBe('PUBLISHING')
  })

  it('writes the answers of one post claimed by two batches of the same publisher in one transaction', async () => {
    const together = gate(4)
    const app = await setup(async (_input, publish) => {
      const answer = await publish()
      await together()
      return answer
    })
    const { deps, counter } = countingTransactions(app.t)
    const publish = batchPublisher(deps)
    const first = publish(app.deliveries.slice(0, 2))
    // The second batch is claimed once the first one's calls are under way (its claim has committed).
    await vi.waitFor(() => expect(together.arrived()).toBe(2))
    const outcomes = await Promise.all([...first, ...publish(app.deliveries.slice(2))])
    expect(outcomes).toEqual(['published', 'published', 'published', 'published'])
    // Two claims, one transaction for the four answers.
    expect(counter.transactions).toBe(3)
    const [row] = await app.t.deps.db.select().from(posts).where(eq(posts.id, app.post.id))
    expect(row!.status).toBe('PUBLISHED')
  })

  it('writes the answers that have arrived when a sibling is still at its network, without waiting for it', async () => {
    let release: () => void = () => {}
    const slowAnswer = new Promise<void>((r) => (release = r))
    const app = await setup(async (input, publish) => {
      if (input.accountId === app.accounts[3]!.id) await slowAnswer
      return publish()
    })
    const { t, accounts, byAccount, deliveries } = app
    const running = publishTargets(t.deps, deliveries)
    const slowIndex = deliveries.findIndex((d) => d.targetId === byAccount.get(accounts[3]!.id))
    const fast = running.filter((_p, i) => i !== slowIndex)
    expect(await Promise.all(fast)).toEqual(['published', 'published', 'published'])
    const ids = accounts.map((a) => byAccount.get(a.id)!)
    const rows = await rowsOf(t, ids)
    expect(ids.map((id) => rows.get(id)!.status)).toEqual(['PUBLISHED', 'PUBLISHED', 'PUBLISHED', 'PUBLISHING'])
    release()
    expect(await running[slowIndex]).toBe('published')
    const [row] = await t.deps.db.select().from(posts).where(eq(posts.id, app.post.id))
    expect(row!.status).toBe('PUBLISHED')
  })
})
