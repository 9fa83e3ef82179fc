/**
 * What the fault-injection tests share: an app over the real adapters pointed at loopback fakes,
 * a fixed clock the test moves (backoffs and Retry-After waits cost no real time), the API called
 * the way a user calls it (every answer recorded for the leak watch, any 5xx counted), and the
 * four networks set up with connected accounts:
 * - MICROBLOG_NET: OAuth 2 with rotating refresh tokens; no idempotency key, a lost answer is
 *   looked up in the account's timeline;
 * - MESSAGING_NET: a bot token, no idempotency and no read-back (a lost answer is left to the user);
 * - FEDERATED_NET: `Idempotency-Key` on status creation;
 * - VIDEOSHARE_NET: OAuth 2 and asynchronous processing (resumable upload, then status polls).
 */
import { eq } from 'drizzle-orm'
import { expect } from 'vitest'
import { accounts, posts, targets } from '../../../src/db/schema'
import { startFederatedFake } from '../../fakes/federated'
import { startMessagingFake } from '../../fakes/messaging'
import { startMicroblogFake } from '../../fakes/microblog'
import { startVideoShareFake } from '../../fakes/video-share'
import { runDue } from '../../support/engine'
import { fixedClock, realAccount, storedMedia } from '../../support/fixtures'
import { createTestApp, type TestApp, type TestAppOptions } from '../../support/test-app'
import type { LeakWatch } from './leaks'

export const T0 = '2026-11-21T10:00:00.000Z'
export const MICROBLOG_CLIENT = { clientId: 'mb-client-1', clientSecret: 'mb-secret-1' }
export const VIDEOSHARE_CLIENT = { clientId: 'yt_client', clientSecret: 'yt_secret' }

/** Short, deterministic backoffs: the first retry waits 10 s of the test's clock, then 20 s, 40 s. */
export const POLICY = { backoffBaseSec: 10, maxAttempts: 4, leaseSec: 60, sweepGraceSec: 30, random: () => 0.5 }

/** Counters for the file's one-line summary. */
export const tally = { faults: 0, targets: 0, duplicates: 0, serverErrors: 0 }

export type Clock = ReturnType<typeof fixedClock>

export interface Harness {
  t: TestApp
  clock: Clock
  /** The API as a user calls it: the answer's JSON, recorded for the leak watch; a 5xx fails the test. */
  api(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }>
  /** Creates a post to publish now and returns it. */
  publish(body: Record<string, unknown>): Promise<any>
  post(id: string): Promise<any>
  /** Moves the clock on by `sec` and runs every delivery then due. */
  later(sec: number): Promise<string[]>
  run(): Promise<string[]>
  /** Checks what every target of the post says and records the log lines; call once at the end. */
  finish(postId: string): Promise<any>
}

export async function harness(
  watch: LeakWatch,
  options: Pick<TestAppOptions, 'networks' | 'parts'> = {},
): Promise<Harness> {
  const clock = fixedClock(T0)
  const logLines: string[] = []
  const t = await createTestApp({ clock, logLines, publishing: POLICY, ...options })
  watch.secret(t.token)
  const api: Harness['api'] = async (method, path, body) => {
    const res = await t.call(method, path, body === undefined ? {} : { body })
    const text = await res.text()
    watch.record(`${method} ${path} -> ${res.status}`, text)
    if (res.status >= 500) tally.serverErrors++
    expect(res.status, `${method} ${path}: ${text}`).toBeLessThan(500)
    return { status: res.status, json: text ? JSON.parse(text) : null }
  }
  const run = () => runDue(t, t.publishQueue)
  return {
    t,
    clock,
    api,
    run,
    async publish(body) {
      const created = await api('POST', '/v1/posts', { type: 'IMAGE', mediaIds: [], action: 'now', ...body })
      expect(created.status).toBe(200)
      tally.targets += created.json.targets.length
      return created.json
    },
    post: async (id) => (await api('GET', `/v1/posts/${id}`)).json,
    async later(sec) {
      clock.set(new Date(clock.now().getTime() + sec * 1000).toISOString())
      return run()
    },
    async finish(postId) {
      const post = (await api('GET', `/v1/posts/${postId}`)).json
      for (const target of post.targets) {
        if (target.status === 'FAILED') {
          // Every failure says what happened and what to do, in words.
          expect(target.error.code).toMatch(/^(transient|rate_limited|rejected|auth_expired|unconfirmed)$/)
          expect(target.error.message.length).toBeGreaterThan(15)
        }
        if (target.status === 'PUBLISHED') expect(target.error).toBeNull()
      }
      await expectConsistent(t, postId)
      for (const line of logLines) watch.record('log', line)
      return post
    },
  }
}

/** The rows agree: no target left claimed, and the post's status is what its targets make it. */
export async function expectConsistent(t: TestApp, postId: string) {
  const [post] = await t.deps.db.select().from(posts).where(eq(posts.id, postId))
  const rows = await t.deps.db.select().from(targets).where(eq(targets.postId, postId))
  for (const row of rows) {
    expect(row.status).not.toBe('PUBLISHING')
    expect(row.leaseUntil).toBeNull()
    if (row.status === 'PUBLISHED') expect(row.platformPostId).toBeTruthy()
    if (row.status === 'FAILED') expect(row.error).toBeTruthy()
  }
  const statuses = new Set(rows.map((r) => r.status))
  if (statuses.size === 1 && statuses.has('PUBLISHED')) expect(post!.status).toBe('PUBLISHED')
  if (statuses.has('PENDING')) expect(['SCHEDULED', 'PUBLISHING']).toContain(post!.status)
}

export const accountRow = async (t: TestApp, id: string) =>
  (await t.deps.db.select().from(accounts).where(eq(accounts.id, id)))[0]!
export const targetRow = async (t: TestApp, id: string) =>
  (await t.deps.db.select().from(targets).where(eq(targets.id, id)))[0]!

/** Counts a network's posts for the summary: anything past one per target is a duplicate. */
export function published(made: number, expected = 1): number {
  tally.duplicates += Math.max(0, made - expected)
  return made
}

export async function microblog(watch: LeakWatch) {
  const clock0 = fixedClock(T0)
  let h: Harness | undefined
  // The network's clock is the test's: the timeline lookup compares its times with our attempts.
  const fake = await startMicroblogFake({
    now: () => (h ? h.clock.now() : clock0.now()),
    client: { id: MICROBLOG_CLIENT.clientId, secret: MICROBLOG_CLIENT.clientSecret },
  })
  h = await harness(watch, {
    networks: { origins: { MICROBLOG_NET_API_URL: fake.url }, clients: { MICROBLOG_NET: MICROBLOG_CLIENT } },
  })
  const creds = {
    accessToken: 'access-1',
    refreshToken: 'refresh-1',
    expiresAt: '2026-11-21T12:00:00.000Z',
    userId: fake.userId,
    username: fake.username,
  }
  watch.secret(MICROBLOG_CLIENT.clientSecret)
  const account = await realAccount(h.t, 'MICROBLOG_NET', 'DIRECT_LOGIN', creds, fake.userId)
  return { ...h, fake, account }
}

export async function messaging(watch: LeakWatch) {
  const fake = await startMessagingFake()
  const h = await harness(watch, { networks: { origins: { MESSAGING_NET_API_URL: fake.url } } })
  watch.secret(fake.token)
  const creds = { botToken: fake.token, chatId: String(fake.chat.id), chatUsername: fake.chat.username }
  const account = await realAccount(h.t, 'MESSAGING_NET', 'BOT_TOKEN', creds, String(fake.chat.id))
  return { ...h, fake, account }
}

export async function federated(watch: LeakWatch, parts?: TestAppOptions['parts']) {
  const clock0 = fixedClock(T0)
  let h: Harness | undefined
  const fake = await startFederatedFake({ now: () => (h ? h.clock.now() : clock0.now()) })
  h = await harness(watch, parts ? { parts } : {})
  watch.secret(fake.token)
  const creds = { instanceUrl: fake.url, accessToken: fake.token }
  const account = await realAccount(h.t, 'FEDERATED_NET', 'DIRECT_LOGIN', creds, '109876')
  // This fake keeps its server apart (faults, calls and injected are on it).
  return { ...h, fake, net: fake.server, account }
}

export async function videoShare(watch: LeakWatch) {
  const fake = await startVideoShareFake()
  const origins = { VIDEOSHARE_NET_API_URL: fake.url, VIDEOSHARE_NET_OAUTH_URL: fake.url }
  const h = await harness(watch, { networks: { origins, clients: { VIDEOSHARE_NET: VIDEOSHARE_CLIENT } } })
  const creds = {
    accessToken: fake.state.accessToken,
    refreshToken: fake.state.refreshToken,
    expiresAt: '2026-11-21T11:00:00Z',
    channelId: 'UC_channel_1',
  }
  watch.secret(creds.accessToken, creds.refreshToken, VIDEOSHARE_CLIENT.clientSecret)
  const account = await realAccount(h.t, 'VIDEOSHARE_NET', 'DIRECT_LOGIN', creds, 'UC_channel_1')
  const bytes = Uint8Array.from({ length: 300_000 }, (_, i) => (i * 13) % 253)
  const video = await storedMedia(h.t, { bytes, mimeType: 'video/mp4', width: 1080, height: 1920, durationSec: 40 })
  const publishVideo = (caption: string) =>
    h.publish({ type: 'REEL', caption, accountIds: [account.id], mediaIds: [video] })
  return { ...h, fake, account, publishVideo }
}
