/**
 * Crash rounds: `npm start` (embedded, or PostgreSQL when the run gives DATABASE_URL) publishes a
 * burst of posts to loopback networks and is killed with SIGKILL at seeded random moments, started
 * again on the same DATA_DIR each time, then drained. Every target must end PUBLISHED with exactly
 * one post at its network, or FAILED with a code and message (`unconfirmed` only when the network
 * could not say; any other failure only when nothing went out); none published twice, none left
 * PENDING or PUBLISHING, and all settled within 150 s of the last restart.
 *
 * Every random choice (which posts are scheduled and when, how many kills, when each comes and
 * whether it waits for a call on the wire, each network call's latency) is drawn from CRASH_SEED,
 * printed at the start of the run and of each round and in every failure message: run again with
 * CRASH_SEED=<seed> (and the same CRASH_ROUNDS and CRASH_POSTS) to replay it. Each round draws from
 * its own stream (the seed and the round number), each request's latency from the request itself,
 * so no draw depends on how the timings of an earlier one fell.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { databaseEnv, runCli } from '../support/processes'
import {
  apiClient,
  CHAT_CHANNELS,
  SUBREDDIT,
  WORKCHAT_CHANNEL,
  deriveSeed,
  seededRandom,
  ServerLife,
  startCrashNetworks,
} from './support/crash-harness'
import { type CrashAccount, planRound, type RoundPlan, type RoundResult, runRound } from './support/crash-round'
import { createLeakWatch } from './support/leaks'

/** The promise: every post settled this long after the restart (its spawn). */
const SETTLE_LIMIT_SEC = 150
const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 3)
const POSTS_PER_ROUND = Number(process.env.CRASH_POSTS ?? 48)
const SEED = Number(process.env.CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31))
const DATABASE = process.env.DATABASE_URL ? 'postgresql' : 'embedded'
/** What a failure message says to replay the run. */
const REPLAY = `CRASH_SEED=${SEED} CRASH_ROUNDS=${ROUNDS} CRASH_POSTS=${POSTS_PER_ROUND}`

const dataDir = mkdtempSync(join(tmpdir(), 'sps-crash-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

/** The round's random choices, printed before it runs. */
function choices(plan: RoundPlan): string {
  const scheduled = plan.posts.filter((p) => p.delaySec > 0).length
  const kills = plan.killAfterMs.map((ms, k) => `${ms} ms${plan.midCall[k] ? ' then mid-call' : ''}`)
  return `${plan.posts.length} posts (${scheduled} scheduled), kills after ${kills.join(', ')}`
}

/** One line per round: targets, kills, outcomes, duplicates, settle time. */
function summary(plan: RoundPlan, r: RoundResult): string {
  const failed = Object.entries(r.failedByCode).map(([code, n]) => `${code}=${n}`)
  const settled =
    r.settleSec === null ? `not settled in ${SETTLE_LIMIT_SEC} s` : `settled in ${r.settleSec.toFixed(1)} s`
  const within = r.settleSec !== null && r.settleSec <= SETTLE_LIMIT_SEC ? 'within' : 'NOT within'
  return [
    `${r.targets} targets, ${r.kills} kills (after ${plan.killAfterMs.join('/')} ms;`,
    `network calls in flight ${r.inFlightAtKills.join('/')}), published ${r.published},`,
    `failed {${failed.join(', ')}} (unconfirmed but on the network: ${r.unconfirmedButPosted}),`,
    `duplicates ${r.duplicates}, ${settled} after the last restart (${within} ${SETTLE_LIMIT_SEC} s)`,
  ].join(' ')
}

describe(`crash rounds (${DATABASE})`, () => {
  it('kill -9 mid-burst, restart, drain: published once or failed with a reason, settled in 150 s', async () => {
    console.log(`crash rounds: ${REPLAY} (${DATABASE})`)
    const watch = createLeakWatch()
    const networks = await startCrashNetworks(SEED)
    watch.secret(...networks.secrets)
    const env = { ...databaseEnv(dataDir), ...networks.env, ALLOW_PRIVATE_URLS: 'true', LOG_LEVEL: 'info' }

    // Set-up through the CLI, before the server holds the embedded database.
    const cli = async (args: string[], scan = true) => {
      const result = await runCli(args, env)
      watch.record(`cli ${args.slice(0, 2).join(' ')} (stderr)`, result.stderr)
      if (scan) watch.record(`cli ${args.slice(0, 2).join(' ')}`, result.stdout)
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0)
      return result.json
    }
    const ws = await cli(['workspace', 'create', '--name', 'Crash rounds', '--plan', 'agency'])
    // The token is this command's own answer: the one place it may appear.
    const token: string = (await cli(['token', 'create', '--workspace', ws.id, '--name', 'crash'], false)).token
    watch.secret(token)
    const connect = async (
      platform: string,
      connection: string,
      credentials: unknown,
      place: string,
      destination?: string,
    ) => {
      const args = ['--platform', platform, '--connection', connection, '--credentials', JSON.stringify(credentials)]
      const account = await cli(['account', 'add', '--workspace', ws.id, ...args])
      return {
        id: account.id as string,
        platform,
        place,
        ...(destination ? { destination } : {}),
      } satisfies CrashAccount
    }
    const { messaging, microblog } = networks
    const chatBot = networks.chat.state.botToken
    const accounts = [
      await connect(
        'MESSAGING_NET',
        'BOT_TOKEN',
        { botToken: messaging.token, chatId: `@${messaging.chat.username}` },
        String(messaging.chat.id),
      ),
      // One after another: the embedded database takes one process at a time.
      await connect('CHAT_NET', 'BOT_TOKEN', { botToken: chatBot, channelId: CHAT_CHANNELS[0] }, CHAT_CHANNELS[0]),
      await connect('CHAT_NET', 'BOT_TOKEN', { botToken: chatBot, channelId: CHAT_CHANNELS[1] }, CHAT_CHANNELS[1]),
      await connect(
        'MICROBLOG_NET',
        'DIRECT_LOGIN',
        {
          accessToken: 'access-1',
          refreshToken: 'refresh-1',
          expiresAt: new Date(Date.now() + 24 * 3600_000).toISOString(),
          userId: microblog.userId,
        },
        microblog.userId,
      ),
      // Networks publishing into a destination chosen per post: a workchat channel, a subreddit.
      await connect(
        'WORKCHAT_NET',
        'BOT_TOKEN',
        { botToken: networks.workchat.state.accessToken },
        WORKCHAT_CHANNEL,
        WORKCHAT_CHANNEL,
      ),
      await connect(
        'FORUM_NET',
        'DIRECT_LOGIN',
        {
          accessToken: networks.forum.state.accessToken,
          refreshToken: networks.forum.state.refreshToken,
          expiresAt: new Date(Date.now() + 24 * 3600_000).toISOString(),
          username: networks.forum.state.user.name,
        },
        SUBREDDIT,
        SUBREDDIT,
      ),
    ]

    const life = new ServerLife(env, watch)
    const api = apiClient(life, token, watch)
    const results: RoundResult[] = []
    try {
      await life.start()
      for (let round = 1; round <= ROUNDS; round++) {
        const random = seededRandom(deriveSeed(SEED, 'round', round))
        const plan = planRound(round, `${SEED}-${round}`, accounts, random, POSTS_PER_ROUND)
        console.log(`crash round ${round} (${DATABASE}, CRASH_SEED=${SEED}): ${choices(plan)}`)
        const result = await runRound(plan, { life, api, networks, accounts, deadlineSec: SETTLE_LIMIT_SEC })
        results.push(result)
        console.log(`crash round ${round} (${DATABASE}, CRASH_SEED=${SEED}): ${summary(plan, result)}`)
        for (const [said, n] of Object.entries(result.failures)) console.log(`  round ${round}: ${n} x ${said}`)
        for (const p of result.problems.slice(0, 20)) console.log(`  round ${round}: ${p}`)
        // A round that did not settle leaves work in flight: the next one would not be judged fairly.
        if (result.settleSec === null) break
        networks.reset()
      }
    } finally {
      await life.stop()
      await networks.close()
    }

    expect(life.unexpected, `the server exited on its own (replay: ${REPLAY})`).toEqual([])
    for (const [i, r] of results.entries()) {
      const replay = `round ${i + 1}, replay: ${REPLAY}`
      expect(r.duplicates, `published twice (${replay})`).toBe(0)
      expect(r.problems, replay).toEqual([])
      expect(r.settleSec, `settled within ${SETTLE_LIMIT_SEC} s of the restart (${replay})`).not.toBeNull()
      expect(r.settleSec!, `settled within ${SETTLE_LIMIT_SEC} s of the restart (${replay})`).toBeLessThanOrEqual(
        SETTLE_LIMIT_SEC,
      )
    }
    expect(results.length, `rounds run (replay: ${REPLAY})`).toBe(ROUNDS)
    expect(watch.leaks(), `leaks (replay: ${REPLAY})`).toEqual([])
  })
})
