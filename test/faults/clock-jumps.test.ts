import { eq } from 'drizzle-orm'
import { afterEach, describe, expect, inject, it } from 'vitest'
import { targets } from '../../src/db/schema'
import { publishTarget } from '../../src/services/publishing/publish-target'
import { sweepTargets } from '../../src/services/publishing/sweep'
import { resolveSession, SESSION_IDLE_MS, SESSION_TTL_MS, startSession } from '../../src/services/people/sessions'
import { createUser } from '../../src/services/people/users'
import { startMessagingFake, type MessagingFake } from '../fakes/messaging'
import { runDue } from '../support/engine'
import { fixedClock, realAccount } from '../support/fixtures'
import { createTestApp, type TestApp } from '../support/test-app'
import { databaseOf, recordFault } from './support/fault-report'
import { RIG_POLICY } from './support/qstash-rig'

/**
 * Issue 35, item 5: the injected clock jumps (an hour forward, ten minutes back) while posts are
 * scheduled and while the sweep runs. The app runs its in-process delivery path (the recording
 * queue run by the test at the clock's time, and the sweep), the real MESSAGING_NET adapter posting
 * to its loopback fake (no idempotency, no read-back: every send is a message, so the fake counts
 * duplicates). Leases are 60 s and the sweep's grace 30 s (test clock).
 */
const database = databaseOf(inject('databaseUrl'))
const T0 = new Date(Math.floor(Date.now() / 60_000) * 60_000)
const at = (min: number) => new Date(T0.getTime() + min * 60_000)

interface Rig {
  t: TestApp
  clock: ReturnType<typeof fixedClock>
  fake: MessagingFake
  accountId: string
}
let fake: MessagingFake | null = null
afterEach(async () => {
  await fake?.close()
  fake = null
})

async function rig(): Promise<Rig> {
  const clock = fixedClock(T0.toISOString())
  fake = await startMessagingFake()
  const t = await createTestApp({
    clock,
    publishing: RIG_POLICY,
    networks: { origins: { MESSAGING_NET_API_URL: fake.url } },
  })
  const creds = { botToken: fake.token, chatId: String(fake.chat.id), chatUsername: fake.chat.username }
  const account = await realAccount(t, 'MESSAGING_NET', 'BOT_TOKEN', creds, String(fake.chat.id))
  return { t, clock, fake, accountId: account.id }
}

async function schedule(r: Rig, caption: string, when: Date | 'now') {
  const timing = when === 'now' ? { action: 'now' } : { action: 'schedule', scheduledAt: when.toISOString() }
  const res = await r.t.call('POST', '/v1/posts', {
    body: { type: 'IMAGE', mediaIds: [], caption, accountIds: [r.accountId], ...timing },
  })
  expect(res.status, await res.clone().text()).toBe(200)
  return (await res.json()) as { id: string; targets: Array<{ id: string }> }
}

const sent = (r: Rig, caption: string) => r.fake.messages.filter((m) => m.text === caption).length
/** Delivers what is due and sweeps, as the server's timers do, on the test's clock. */
const tick = async (r: Rig) => {
  await runDue(r.t, r.t.publishQueue)
  await sweepTargets(r.t.deps, { workspaceId: r.t.workspaceId })
  await runDue(r.t, r.t.publishQueue)
}

/** Posts at these minutes from T0: `published(upTo)` says which must be out by a clock reading. */
function plan(minutes: number[]) {
  return minutes.map((m) => ({ minute: m, caption: `at-${m}-${crypto.randomUUID()}` }))
}

async function session(r: Rig) {
  const user = await createUser(r.t.deps, {
    email: `clock-${crypto.randomUUID()}@example.test`,
    name: 'Clock',
    password: 'harbour lantern quietly drifting',
  })
  return startSession(r.t.deps.db, user.id, r.clock.now())
}

describe('item 5: clock jumps', () => {
  it('5-clock-forward: an hour forward while posts are scheduled, a call is in flight and the sweep runs', async () => {
    const r = await rig()
    const s = await session(r)
    const posts = plan([5, 20, 40, 59, 61, 90, 120])
    for (const p of posts.slice(0, 4)) await schedule(r, p.caption, at(p.minute))
    // A call in flight when the clock jumps: the network holds its answer until the test lets it go.
    let answer!: () => void
    r.fake.fault('POST', /sendMessage$/, { kind: 'delay', until: new Promise((res) => (answer = () => res(null))) })
    const inFlight = { caption: `in-flight-${crypto.randomUUID()}` }
    const made = await schedule(r, inFlight.caption, 'now')
    const delivery = r.t.publishQueue.takeDue(r.clock.now())
    const call = Promise.all(delivery.map((d) => publishTarget(r.t.deps, d)))
    while (r.fake.requests.filter((q) => /sendMessage$/.test(q.path)).length === 0)
      await new Promise((res) => setTimeout(res, 10))

    r.clock.set(at(60).toISOString()) // +1 h, in the middle of scheduling and of the call
    for (const p of posts.slice(4)) await schedule(r, p.caption, at(p.minute))
    const sweptDuringCall = await sweepTargets(r.t.deps, { workspaceId: r.t.workspaceId })
    answer()
    const callOutcomes = await call
    await tick(r)
    const afterJump = Object.fromEntries(posts.map((p) => [p.minute, sent(r, p.caption)]))
    const early = posts.filter((p) => p.minute > 60).reduce((n, p) => n + sent(r, p.caption), 0)
    const sessionAfterJump = await resolveSession(r.t.deps.db, s.token, r.clock.now())

    r.clock.set(at(125).toISOString())
    await tick(r)
    await tick(r)
    const counts = [...posts.map((p) => sent(r, p.caption)), sent(r, inFlight.caption)]
    const [target] = await r.t.deps.db.select().from(targets).where(eq(targets.id, made.targets[0]!.id))
    const row = recordFault({
      id: '5-clock-forward',
      fault: 'the clock jumps 1 hour forward',
      injected:
        'the injected clock set 60 min on while 4 posts were scheduled (3 more after), one call in flight, then the sweep',
      during: '8 posts on MESSAGING_NET due from 5 min to 2 h, one publishing at the jump',
      duration: 'instant; 60 min',
      meanwhile: `sweep during the held call: ${JSON.stringify(sweptDuringCall)}; the held call answered ${callOutcomes.join(',')}; session: ${sessionAfterJump ? 'still live' : 'ended'}`,
      recoverySec: null,
      targets: counts.length,
      lost: counts.filter((n) => n === 0).length,
      duplicated: counts.reduce((n, c) => n + Math.max(0, c - 1), 0),
      database,
      note: `published within the hour: ${posts.filter((p) => p.minute <= 60 && afterJump[p.minute] === 1).length} of 4; beyond it, early: ${early}. The in-flight claim's 60 s lease expired by the jumped clock: the sweep took it over while the call still ran (a second claim; it asks the network, never publishes blindly), and the held call's real answer, written last, left the target ${target!.status}`,
    })
    expect(afterJump).toEqual({ 5: 1, 20: 1, 40: 1, 59: 1, 61: 0, 90: 0, 120: 0 })
    expect(early).toBe(0)
    expect(target!.status).toBe('PUBLISHED')
    expect([row.lost, row.duplicated]).toEqual([0, 0])
    // A session lasts 7 days and ends after 12 h idle: an hour's jump ends neither.
    expect(SESSION_TTL_MS).toBeGreaterThan(3600_000)
    expect(SESSION_IDLE_MS).toBeGreaterThan(3600_000)
    expect(sessionAfterJump?.expiresAt.getTime()).toBe(s.expiresAt.getTime())
  })

  it('5-clock-back: ten minutes back after publishing and during a claim', async () => {
    const r = await rig()
    const s = await session(r)
    const posts = plan([5, 12, 15, 25])
    for (const p of posts) await schedule(r, p.caption, at(p.minute))
    r.clock.set(at(10).toISOString())
    await tick(r)
    const at10 = posts.map((p) => sent(r, p.caption))
    // A claim taken at minute 10 whose call hangs (its holder went quiet).
    let answer!: () => void
    r.fake.fault('POST', /sendMessage$/, { kind: 'delay', until: new Promise((res) => (answer = () => res(null))) })
    const hung = { caption: `hung-${crypto.randomUUID()}` }
    const hungPost = await schedule(r, hung.caption, 'now')
    const call = Promise.all(r.t.publishQueue.takeDue(r.clock.now()).map((d) => publishTarget(r.t.deps, d)))
    while (r.fake.requests.filter((q) => /sendMessage$/.test(q.path)).length === 0)
      await new Promise((res) => setTimeout(res, 10))

    r.clock.set(at(0).toISOString()) // 10 min back
    await tick(r)
    const afterBack = posts.map((p) => sent(r, p.caption))
    const sessionAfterBack = await resolveSession(r.t.deps.db, s.token, r.clock.now())
    // The lease (60 s from minute 10) holds until minute 11 on the clock: 11 min after the jump, not sooner.
    r.clock.set(new Date(at(11).getTime() - 1_000).toISOString())
    const beforeLease = await sweepTargets(r.t.deps, { workspaceId: r.t.workspaceId })
    r.clock.set(new Date(at(11).getTime() + 1_000).toISOString())
    const pastLease = await sweepTargets(r.t.deps, { workspaceId: r.t.workspaceId })
    answer()
    const hungOutcome = await call
    for (const m of [13, 16, 26]) {
      r.clock.set(at(m).toISOString())
      await tick(r)
      if (m === 13) r.clock.set(at(8).toISOString()) // and back again, mid-run
      await tick(r)
    }
    const counts = [...posts.map((p) => sent(r, p.caption)), sent(r, hung.caption)]
    const hungTarget = (await r.t.deps.db.select().from(targets).where(eq(targets.id, hungPost.targets[0]!.id)))[0]!
    const expired = new Date(s.expiresAt.getTime() + 1_000)
    const deadAtExpiry = await resolveSession(r.t.deps.db, s.token, expired)
    const row = recordFault({
      id: '5-clock-back',
      fault: 'the clock jumps 10 minutes back',
      injected: 'the injected clock set 10 min back after a publish and during a hung claim, and again mid-run',
      during: '5 posts on MESSAGING_NET due at 5, 12, 15, 25 min and now',
      duration: 'instant; 10 min',
      meanwhile: `sweep 1 s before lease + jump: ${beforeLease.released + beforeLease.confirmed + beforeLease.unconfirmed} claims taken over; 1 s after: ${pastLease.released + pastLease.confirmed + pastLease.unconfirmed}; the hung call answered ${hungOutcome.join(',')}; session: ${sessionAfterBack ? 'still live' : 'ended'}`,
      recoverySec: null,
      targets: counts.length,
      lost: counts.filter((n) => n === 0).length,
      duplicated: counts.reduce((n, c) => n + Math.max(0, c - 1), 0),
      database,
      note: `the hung claim was taken over at lease + jump, not before and not later (${JSON.stringify(pastLease)}): the sweep asked the network rather than publishing again; the target ended ${hungTarget.status}; a session is not extended by the jump and ends at its absolute expiry`,
    })
    expect(at10).toEqual([1, 0, 0, 0])
    expect(afterBack).toEqual([1, 0, 0, 0])
    expect(beforeLease.released + beforeLease.confirmed + beforeLease.unconfirmed).toBe(0)
    expect(pastLease.released + pastLease.confirmed + pastLease.unconfirmed).toBe(1)
    expect([row.lost, row.duplicated]).toEqual([0, 0])
    expect(hungTarget.status).toBe('PUBLISHED')
    expect(sessionAfterBack?.expiresAt.getTime()).toBe(s.expiresAt.getTime())
    expect(deadAtExpiry).toBeNull()
  })
})
