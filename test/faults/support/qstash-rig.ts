/**
 * The app over the QStash path, as on Workers, for the queue and clock fault tests: the real
 * `@upstash/qstash` Client publishing to the loopback stand-in (test/support/qstash-local.ts), the
 * stand-in calling back the app's `/internal/publish` over loopback HTTP with signed requests, the
 * real QStash verifier, and the real MESSAGING_NET adapter posting to its loopback fake (no
 * idempotency on that network: every send is a message, so the fake's messages count duplicates).
 * The app's clock is a fixed clock the test moves; the stand-in reads due times on the same clock.
 */
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { Client } from '@upstash/qstash'
import type { Db } from '../../../src/db/types'
import {
  createQStashPublishQueue,
  createQStashVerifier,
  publishCallbackUrl,
} from '../../../src/infra/publish-queue/qstash'
import { sweepTargets, type SweepReport } from '../../../src/services/publishing/sweep'
import { startMessagingFake, type MessagingFake } from '../../fakes/messaging'
import { fixedClock, realAccount } from '../../support/fixtures'
import { startLocalQStash, type LocalQStash, type LocalQStashOptions } from '../../support/qstash-local'
import { createTestApp, type TestApp } from '../../support/test-app'

/** Short, deterministic backoffs; a 60 s lease and a 30 s sweep grace on the test's clock. */
export const RIG_POLICY = { backoffBaseSec: 10, maxAttempts: 4, leaseSec: 60, sweepGraceSec: 30, random: () => 0.5 }

/** What a create's transaction returns (services/posts/create.ts): the rows it wrote. */
interface WrittenRows {
  post: { id: string; version: number }
  targets: Array<{ id: string; dueAt: Date | null; attempts: number }>
}

/** Called inside a post create's transaction, before it commits. */
export type BeforeCommit = (written: WrittenRows) => Promise<void>

export interface QStashRig {
  t: TestApp
  clock: ReturnType<typeof fixedClock>
  qstash: LocalQStash
  fake: MessagingFake
  accountId: string
  /** The next post create runs `hook` inside its transaction, before the commit. */
  beforeNextCommit(hook: BeforeCommit): void
  /** Creates a post to the messaging account: now, or at `scheduledAt`. Answers its JSON. */
  create(caption: string, scheduledAt?: Date): Promise<any>
  /** The fake's messages with this text. */
  sent(caption: string): number
  /** Moves the test's clock on by `sec`. */
  advance(sec: number): void
  /** Runs the sweep (this workspace only) on the test's clock. */
  sweep(): Promise<SweepReport>
  /** Waits until the stand-in has nothing scheduled or in flight. */
  settle(): Promise<void>
  /** The stand-in's delivery attempts summarised: `200 {"outcome":"published"}` -> count. */
  answers(from?: number): Record<string, number>
  close(): Promise<void>
}

/** A db whose create transactions run the armed hook before committing. */
function hookedDb(db: Db, armed: { hook: BeforeCommit | null }): Db {
  return new Proxy(db, {
    get(target, prop, receiver) {
      if (prop !== 'transaction') return Reflect.get(target, prop, receiver)
      return (fn: (tx: unknown) => Promise<unknown>, config?: unknown) =>
        (target.transaction as (f: typeof fn, c?: unknown) => Promise<unknown>)(async (tx) => {
          const result = await fn(tx)
          const hook = armed.hook
          if (hook && result && typeof result === 'object' && 'answer' in result && 'targets' in result) {
            armed.hook = null
            await hook(result as unknown as WrittenRows)
          }
          return result
        }, config)
    },
  })
}

export async function startQStashRig(options: { qstash?: LocalQStashOptions } = {}): Promise<QStashRig> {
  const clock = fixedClock(new Date(Math.floor(Date.now() / 1000) * 1000).toISOString())
  const qstash = await startLocalQStash({
    retryDelayMs: (retried) => 20 * 2 ** retried,
    ...options.qstash,
    now: () => clock.now().getTime(),
  })
  const fake = await startMessagingFake()
  let app: TestApp['app'] | undefined
  const server = serve({
    fetch: (req) => (app ? app.fetch(req) : new Response('starting', { status: 503 })),
    hostname: '127.0.0.1',
    port: 0,
  })
  await new Promise<void>((r) => (server.listening ? r() : server.once('listening', () => r())))
  const publicUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const armed: { hook: BeforeCommit | null } = { hook: null }
  const t = await createTestApp({
    clock,
    publishing: RIG_POLICY,
    publicUrl,
    networks: { origins: { MESSAGING_NET_API_URL: fake.url } },
    deliveryVerifier: createQStashVerifier({
      currentSigningKey: qstash.currentSigningKey,
      nextSigningKey: qstash.nextSigningKey,
    }),
    publishQueue: createQStashPublishQueue({
      client: new Client({ baseUrl: qstash.url, token: qstash.token, devMode: false }),
      callbackUrl: publishCallbackUrl(publicUrl),
      retries: 3,
    }),
    parts: (parts) => ({ ...parts, db: hookedDb(parts.db, armed) }),
  })
  app = t.app
  const creds = { botToken: fake.token, chatId: String(fake.chat.id), chatUsername: fake.chat.username }
  const account = await realAccount(t, 'MESSAGING_NET', 'BOT_TOKEN', creds, String(fake.chat.id))

  return {
    t,
    clock,
    qstash,
    fake,
    accountId: account.id,
    beforeNextCommit: (hook) => (armed.hook = hook),
    async create(caption, scheduledAt) {
      const timing = scheduledAt ? { action: 'schedule', scheduledAt: scheduledAt.toISOString() } : { action: 'now' }
      const res = await t.call('POST', '/v1/posts', {
        body: { type: 'IMAGE', mediaIds: [], caption, accountIds: [account.id], ...timing },
      })
      const json = await res.json()
      if (res.status !== 200) throw new Error(`create answered ${res.status}: ${JSON.stringify(json)}`)
      return json
    },
    sent: (caption) => fake.messages.filter((m) => m.text === caption || m.caption === caption).length,
    advance: (sec) => clock.set(new Date(clock.now().getTime() + sec * 1000).toISOString()),
    sweep: () => sweepTargets(t.deps, { workspaceId: t.workspaceId }),
    settle: () => qstash.idle(),
    answers(from = 0) {
      const out: Record<string, number> = {}
      for (const a of qstash.attempts.slice(from)) {
        const key = `${a.status} ${a.status === 401 ? 'unauthorized' : (a.answer ?? '')}`.trim()
        out[key] = (out[key] ?? 0) + 1
      }
      return out
    },
    async close() {
      await qstash.close()
      await fake.close()
      ;(server as Server).closeAllConnections()
      await new Promise((r) => server.close(r))
    },
  }
}

/** `{ "200 {...}": 3 }` as `200 {...} x3; ...` for a row's `meanwhile`. */
export const describeAnswers = (answers: Record<string, number>): string =>
  Object.entries(answers)
    .map(([k, n]) => `${k} x${n}`)
    .join('; ')
