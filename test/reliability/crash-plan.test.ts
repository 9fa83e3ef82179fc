/**
 * The crash rounds replay from their seed (crash-rounds.test.ts): the same CRASH_SEED gives the
 * same choices, whatever order things happened in around them.
 */
import { describe, expect, it } from 'vitest'
import { deriveSeed, requestLatencies, seededRandom } from './support/crash-harness'
import { type CrashAccount, planRound } from './support/crash-round'

const accounts: CrashAccount[] = [
  { id: 'acc_messaging', platform: 'MESSAGING_NET', place: '-100' },
  { id: 'acc_chat_1', platform: 'CHAT_NET', place: '7' },
  { id: 'acc_chat_2', platform: 'CHAT_NET', place: '8' },
  { id: 'acc_microblog', platform: 'MICROBLOG_NET', place: '15' },
  { id: 'acc_workchat', platform: 'WORKCHAT_NET', place: 'C1', destination: 'C1' },
  { id: 'acc_forum', platform: 'FORUM_NET', place: 'bakers', destination: 'bakers' },
]
const plan = (seed: number, round: number) =>
  planRound(round, `${seed}-${round}`, accounts, seededRandom(deriveSeed(seed, 'round', round)), 48)

describe('crash rounds from a seed', () => {
  it('plans the same round (posts, schedule, kills) from the same seed, and another from another seed', () => {
    expect(plan(1234, 2)).toEqual(plan(1234, 2))
    expect(plan(1234, 2).killAfterMs).not.toEqual(plan(1235, 2).killAfterMs)
    // A round's stream is its own: round 3 is the same whether or not rounds 1 and 2 were drawn first.
    const alone = plan(1234, 3)
    plan(1234, 1)
    plan(1234, 2)
    expect(plan(1234, 3)).toEqual(alone)
  })

  it('sends every account once per post (the chat channels alternating), with the destination of each that has one', () => {
    for (const [i, post] of plan(7, 1).posts.entries()) {
      expect(post.accountIds).toEqual([
        'acc_messaging',
        'acc_microblog',
        'acc_workchat',
        'acc_forum',
        i % 2 === 0 ? 'acc_chat_1' : 'acc_chat_2',
      ])
      expect(post.destinations).toEqual({ acc_workchat: 'C1', acc_forum: 'bakers' })
    }
  })

  it('gives each request the same latencies, whatever order the requests arrive in', () => {
    const requests = ['POST /a {"text":"one"}', 'POST /a {"text":"two"}', 'GET /b ', 'POST /a {"text":"one"}']
    const inOrder = requestLatencies(99, { in: 60, out: 150 })
    const first = requests.map((r) => [r, inOrder(r)] as const)
    const reversed = requestLatencies(99, { in: 60, out: 150 })
    const second = [...requests].reverse().map((r) => [r, reversed(r)] as const)
    // The nth time a request comes, it gets the nth latency drawn for it, in either order.
    const byRequest = (pairs: ReadonlyArray<readonly [string, unknown]>) =>
      Object.fromEntries(requests.map((r) => [r, pairs.filter(([k]) => k === r).map(([, l]) => l)]))
    expect(byRequest(second)).toEqual(byRequest(first))
    for (const [, latency] of first) {
      expect(latency.in).toBeGreaterThanOrEqual(0)
      expect(latency.in).toBeLessThanOrEqual(60)
      expect(latency.out).toBeLessThanOrEqual(150)
    }
    const otherSeed = requestLatencies(100, { in: 60, out: 150 })
    expect(requests.map((r) => otherSeed(r))).not.toEqual(first.map(([, l]) => l))
  })
})
