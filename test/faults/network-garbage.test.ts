/**
 * Issue 35, item 7: a network answering garbage, for every adapter of the registry. Each network's
 * create/publish call (support/garbage-networks.ts, a route per network as data) goes through the
 * garbage proxy (support/garbage-proxy.ts), which answers every such request, retries included,
 * with one of five kinds of garbage: an HTML page with 200, the first half of the network's JSON
 * after the network acted, a 200 carrying an error object, a redirect to itself, a 30 s stall. One
 * post per network and mode; the engine runs on the fixed clock of the fault harness (backoffs cost
 * no wall time), the sweep runs as its cron would, and the network calls' deadline is capped at
 * DEADLINE_MS (settings.networkDeadlineCapMs) so a stall costs 1.5 s of wall time instead of 30 s.
 * Measured per target: the final state, its error's words, the posts the fake holds, the attempts.
 * Promises: never "published" for a post that is not there, never two posts, no target left
 * unsettled, and every failure in words (no raw parse error, no "undefined").
 */
import { afterAll, describe, expect, inject, it } from 'vitest'
import { DEFAULT_NETWORK_ORIGINS, type NetworkClients, type NetworkOrigins } from '../../src/config'
import type { PlatformId } from '../../src/domain/vocabulary'
import { createRealAdapters } from '../../src/networks/real-adapters'
import { publishTarget } from '../../src/services/publishing/publish-target'
import { sweepTargets } from '../../src/services/publishing/sweep'
import { fixedClock, realAccount } from '../support/fixtures'
import { createTestApp, type TestApp } from '../support/test-app'
import { POLICY, T0 } from '../reliability/support/fault-harness'
import { databaseOf, recordFault } from './support/fault-report'
import { GARBAGE_MODES, type GarbageMode, networkActs, startGarbageProxy } from './support/garbage-proxy'
import { GARBAGE_NETWORKS, SOCKET_NETWORKS } from './support/garbage-networks'

const DEADLINE_MS = 1500
const STALL_MS = 30_000
/** The registry's networks: a new one without a row in GARBAGE_NETWORKS fails the test below. */
const PLATFORMS = (
  Object.keys(createRealAdapters({ clients: {}, origins: DEFAULT_NETWORK_ORIGINS })) as PlatformId[]
).filter((p): p is Exclude<PlatformId, 'RELAY_NET'> => !SOCKET_NETWORKS.includes(p))
const database = databaseOf(inject('databaseUrl'))

interface Outcome {
  platform: PlatformId
  status: string
  code: string | null
  message: string | null
  attempts: number
  posts: number
  /** The proxy's garbled answers (how many times the network's call met the mode). */
  garbled: number
}

const FINAL = new Set(['PUBLISHED', 'FAILED'])
/** Words a user can act on, not a parse error, a stack or an absent value. */
const RAW = /undefined|null|NaN|\[object|SyntaxError|Unexpected (token|end)|JSON\.parse|at .+\(.+:\d+|<html|<!DOCTYPE/i

/** Runs due deliveries side by side (a stall holds one call, not the others), then the sweep. */
async function runRound(t: TestApp) {
  for (;;) {
    const due = t.publishQueue.takeDue(t.deps.clock.now())
    if (due.length === 0) break
    await Promise.all(due.map((d) => publishTarget(t.deps, { targetId: d.targetId, version: d.version })))
  }
  await sweepTargets(t.deps)
}

async function runMode(mode: GarbageMode): Promise<Outcome[]> {
  const clock = fixedClock(T0)
  const nets = await Promise.all(
    PLATFORMS.map(async (platform) => {
      const spec = GARBAGE_NETWORKS[platform]
      const net = await spec.start(() => clock.now())
      const proxy = await startGarbageProxy(net.upstream, { stallMs: STALL_MS })
      return { platform, spec, net, proxy }
    }),
  )
  try {
    const origins: Partial<NetworkOrigins> = Object.assign({}, ...nets.map((n) => n.net.origins(n.proxy.url)))
    const clients: NetworkClients = Object.assign({}, ...nets.map((n) => n.net.clients ?? {}))
    const t = await createTestApp({
      clock,
      publishing: POLICY,
      networks: { origins, clients },
      parts: (parts) => ({ ...parts, settings: { ...parts.settings, networkDeadlineCapMs: DEADLINE_MS } }),
    })
    const posts: string[] = []
    for (const n of nets) {
      const creds = n.net.credentials(n.proxy.url)
      const account = await realAccount(t, n.platform, n.net.connection, creds, n.net.externalId ?? null)
      n.proxy.garble({ ...n.spec.publish, mode, errorObject: n.spec.errorObject })
      const body = {
        type: 'IMAGE',
        mediaIds: [],
        action: 'now',
        accountIds: [account.id],
        ...(await n.net.post(t, account.id)),
      }
      const res = await t.call('POST', '/v1/posts', { body })
      const json = await res.json()
      expect(res.status, `${n.platform}: ${JSON.stringify(json)}`).toBe(200)
      posts.push(json.id)
    }
    const targets = async () =>
      Promise.all(posts.map(async (id) => (await (await t.call('GET', `/v1/posts/${id}`)).json()).targets[0]))
    for (let round = 0; round < 30; round++) {
      await runRound(t)
      if ((await targets()).every((x) => FINAL.has(x.status))) break
      clock.set(new Date(clock.now().getTime() + 60_000).toISOString())
    }
    return (await targets()).map((target, i) => ({
      platform: nets[i]!.platform,
      status: target.status,
      code: target.error?.code ?? null,
      message: target.error?.message ?? null,
      attempts: target.attempts,
      posts: nets[i]!.net.posts(),
      garbled: nets[i]!.proxy.garbled,
    }))
  } finally {
    await Promise.all(nets.map((n) => n.proxy.close()))
  }
}

/** Settled and true: published with its one post there; failed in words; with a post there, only `unconfirmed`. */
function truthful(o: Outcome, acted: boolean): boolean {
  if (o.status === 'PUBLISHED') return o.posts === 1
  if (o.status !== 'FAILED' || !o.message || RAW.test(o.message) || o.message.length < 16) return false
  if (o.posts > 0) return o.code === 'unconfirmed'
  return !acted || o.code === 'unconfirmed' || o.posts === 0
}

/** "PHOTO_NET: FAILED transient after 4 attempts, 'the words'" for the row and the console. */
const describeOutcome = (o: Outcome) =>
  `${o.platform}: ${o.status}${o.code ? ` ${o.code}` : ''} after ${o.attempts} attempt(s), ${o.posts} post(s)` +
  (o.message ? `, '${o.message}'` : '')

function meanwhile(outcomes: Outcome[]): string {
  const groups = new Map<string, Outcome[]>()
  for (const o of outcomes) {
    const key = `${o.status}${o.code ? ` ${o.code}` : ''}`
    groups.set(key, [...(groups.get(key) ?? []), o])
  }
  return [...groups.entries()]
    .map(([key, os]) => {
      const attempts = [...new Set(os.map((o) => o.attempts))].sort().join('/')
      const example = os.find((o) => o.message)?.message
      return `${os.length} ${key} (attempts ${attempts})${example ? `, e.g. '${example}'` : ''}`
    })
    .join('; ')
}

const INJECTED: Record<GarbageMode, string> = {
  html: 'the garbage proxy answers the create call 200 text/html (a sign-in page), not forwarded',
  truncated: 'the create call is forwarded (the network acts), then answered 200 with the first half of its JSON',
  'error-object': "the create call is answered 200 with a JSON error object in the network's style, not forwarded",
  'redirect-loop': 'the create call is answered 302 to its own address, every hop again, not forwarded',
  stall: `the create call is held ${STALL_MS / 1000} s without a byte, not forwarded`,
}

const summary: string[] = []
afterAll(() => console.log(`network-garbage (${database}):\n${summary.join('\n')}`))

describe('a network answering garbage to its create call, for every adapter', () => {
  it('has a route table row for every network of the registry', () => {
    expect(PLATFORMS.length).toBeGreaterThanOrEqual(12)
    for (const platform of PLATFORMS) expect(GARBAGE_NETWORKS[platform], platform).toBeDefined()
  })

  for (const mode of GARBAGE_MODES) {
    it(`${mode}: classified, retried or failed in words, never published twice nor "published" without a post`, async () => {
      const started = Date.now()
      const outcomes = await runMode(mode)
      const acted = networkActs(mode)
      const lost = outcomes.filter((o) => !truthful(o, acted))
      const duplicated = outcomes.reduce((n, o) => n + Math.max(0, o.posts - 1), 0)
      summary.push(
        `  ${mode} (${Math.round((Date.now() - started) / 100) / 10} s):`,
        ...outcomes.map((o) => `    ${describeOutcome(o)}`),
      )
      recordFault({
        id: `7-garbage-${mode}`,
        fault: `every network answers garbage: ${mode}`,
        injected: INJECTED[mode],
        during: `one publish per network (${outcomes.length} networks), engine on a fixed clock, sweep each minute`,
        duration: 'every create call (retries included)',
        meanwhile: meanwhile(outcomes),
        recoverySec: null,
        targets: outcomes.length,
        lost: lost.length,
        duplicated,
        database,
        note:
          `network deadline capped at ${DEADLINE_MS / 1000} s (settings.networkDeadlineCapMs) so a stall costs no real 30 s; ` +
          (lost.length ? `not truthful: ${lost.map(describeOutcome).join(' | ')}` : 'every target settled truthfully'),
      })
      expect(lost.map(describeOutcome)).toEqual([])
      expect(duplicated).toBe(0)
      for (const o of outcomes) {
        expect(o.garbled, `${o.platform}: the proxy never saw its create call`).toBeGreaterThan(0)
        if (!acted) expect(o.status, describeOutcome(o)).not.toBe('PUBLISHED')
      }
    })
  }
})
