/**
 * A burst of publishes through a real `npm start` server, for faults that land while it runs: one
 * workspace and one MESSAGING_NET account behind a delaying proxy (so calls are on the wire when the
 * fault lands), `count` posts due at one moment, created through the bulk endpoint; then the API
 * polled while the fault lasts, and the verdict, target by target, against what the network holds.
 */
import pg from 'pg'
import { expect } from 'vitest'
import { generateCredentialsKey } from '../../../src/infra/credential-cipher'
import { type MessagingFake, startMessagingFake } from '../../fakes/messaging'
import { databaseEnv, runCli } from '../../support/processes'
import { type Instance, startDelayProxy, startInstance } from '../../reliability/support/instances-harness'

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export interface Burst {
  server: Instance
  messaging: MessagingFake
  token: string
  accountId: string
  workspaceId: string
  /** Captions of the burst's posts start with this. */
  prefix: string
  close(): Promise<void>
}

/** The fakes, the workspace, its account and token (through the CLI), and a server on `databaseUrl`. */
export async function startBurstServer(dataDir: string, databaseUrl: string): Promise<Burst> {
  const messaging = await startMessagingFake()
  const proxy = await startDelayProxy(messaging.url, { inMs: 40, outMs: 40 })
  const env = {
    ...databaseEnv(dataDir),
    DATABASE_URL: databaseUrl,
    ALLOW_PRIVATE_URLS: 'true',
    MESSAGING_NET_API_URL: proxy.url,
    CREDENTIALS_KEY: generateCredentialsKey(),
    LOG_LEVEL: 'info',
  }
  const cli = async (args: string[]) => {
    const result = await runCli(args, env)
    expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0)
    return result.json
  }
  const ws = await cli(['workspace', 'create', '--name', 'Database faults', '--plan', 'agency'])
  const token: string = (await cli(['token', 'create', '--workspace', ws.id, '--name', 'faults'])).token
  const credentials = JSON.stringify({ botToken: messaging.token, chatId: `@${messaging.chat.username}` })
  const account = await cli([
    ...['account', 'add', '--workspace', ws.id, '--platform', 'MESSAGING_NET'],
    ...['--connection', 'BOT_TOKEN', '--credentials', credentials],
  ])
  const server = await startInstance(env)
  return {
    server,
    messaging,
    token,
    accountId: account.id,
    workspaceId: ws.id,
    prefix: `burst ${Date.now().toString(36)}`,
    close: async () => {
      if (!server.exited) await server.server.stop()
      await proxy.close()
      await messaging.close()
    },
  }
}

/** `count` posts due at `dueAt`, through the bulk endpoint (500 rows a request, two at once). */
export async function createBurst(burst: Burst, count: number, dueAt: Date): Promise<void> {
  const rows = Array.from({ length: count }, (_, i) => `${burst.accountId},${burst.prefix} ${i},${dueAt.toISOString()}`)
  const chunks: string[][] = []
  for (let i = 0; i < rows.length; i += 500) chunks.push(rows.slice(i, i + 500))
  const send = async (part: string[]) => {
    const res = await fetch(`${burst.server.url}/v1/posts/bulk`, {
      method: 'POST',
      headers: { authorization: `Bearer ${burst.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ csv: `accountIds,caption,scheduledAt\n${part.join('\n')}\n` }),
    })
    const body = (await res.json()) as { succeeded: number; total: number }
    expect(res.status, JSON.stringify(body).slice(0, 500)).toBe(200)
    const refused = (body as { rows?: Array<{ error?: unknown }> }).rows?.find((r) => r.error)
    expect(body.succeeded, JSON.stringify(refused ?? body).slice(0, 500)).toBe(body.total)
  }
  for (let i = 0; i < chunks.length; i += 2) await Promise.all(chunks.slice(i, i + 2).map(send))
}

/** One answer of the API while the fault lasted. */
export interface Answer {
  what: string
  status: number
  /** `Retry-After` and the body's `retryAfterSec`, when the answer is 503. */
  retryAfter: string | null
  retryAfterSec: number | null
  code: string | null
  /** The error's message, for an answer neither 200 nor 503. */
  message: string | null
  ms: number
}

/** Each request is given this long: a request held longer counts as a hang (status 0). */
const REQUEST_LIMIT_MS = 15_000

/** GET /v1/posts, POST /v1/posts (scheduled a day ahead) and GET /health, one of each every `everyMs`, until `until()`. */
export async function pollApi(burst: Burst, until: () => boolean, everyMs = 200): Promise<Answer[]> {
  const answers: Answer[] = []
  const auth = { authorization: `Bearer ${burst.token}`, 'content-type': 'application/json' }
  const ask = async (what: string, path: string, init: RequestInit = {}) => {
    const started = performance.now()
    try {
      const res = await fetch(`${burst.server.url}${path}`, { ...init, signal: AbortSignal.timeout(REQUEST_LIMIT_MS) })
      const body = (await res.json().catch(() => null)) as {
        error?: { code?: string; message?: string; retryAfterSec?: number }
      } | null
      answers.push({
        what,
        status: res.status,
        retryAfter: res.headers.get('retry-after'),
        retryAfterSec: body?.error?.retryAfterSec ?? null,
        code: body?.error?.code ?? null,
        message: res.status === 200 || res.status === 503 ? null : (body?.error?.message ?? null),
        ms: Math.round(performance.now() - started),
      })
    } catch {
      answers.push({
        what,
        status: 0,
        retryAfter: null,
        retryAfterSec: null,
        code: null,
        message: null,
        ms: Math.round(performance.now() - started),
      })
    }
  }
  const inFlight: Promise<void>[] = []
  for (let i = 0; !until(); i++) {
    inFlight.push(
      ask('GET /v1/posts', '/v1/posts?limit=5', { headers: auth }),
      ask('POST /v1/posts', '/v1/posts', {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({
          type: 'IMAGE',
          accountIds: [burst.accountId],
          mediaIds: [],
          action: 'draft',
          caption: `meanwhile ${i}`,
        }),
      }),
      ...(i % 5 === 0 ? [ask('GET /health', '/health')] : []),
    )
    await sleep(everyMs)
  }
  await Promise.all(inFlight)
  return answers
}

/** "503 with Retry-After 41 of 44, 200 3; slowest 5,012 ms" for the row's `meanwhile`. */
export function describeAnswers(answers: Answer[]): string {
  const api = answers.filter((a) => a.what !== 'GET /health')
  const byStatus = new Map<number, number>()
  for (const a of api) byStatus.set(a.status, (byStatus.get(a.status) ?? 0) + 1)
  const odd = api.find((a) => a.status !== 200 && a.status !== 503)
  const told = api.filter((a) => a.status === 503 && a.retryAfter !== null && a.retryAfterSec !== null).length
  const health = answers.filter((a) => a.what === 'GET /health')
  const statuses = [...byStatus.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([s, n]) => `${s === 0 ? 'no answer' : s} x${n}`)
  return (
    `API (GET and POST /v1/posts every 200 ms): ${statuses.join(', ')}; 503 with Retry-After and retryAfterSec ` +
    `${told} of ${byStatus.get(503) ?? 0}; slowest ${Math.max(0, ...api.map((a) => a.ms))} ms. ` +
    `GET /health: ${health.map((h) => h.status).join(' ')}` +
    (odd ? `; e.g. ${odd.what} ${odd.status} ${odd.code}: ${odd.message}` : '')
  )
}

export interface Verdict {
  targets: number
  settled: boolean
  published: number
  unconfirmed: number
  lost: number
  duplicated: number
  /** How the lost ones ended, counted by status, error code and attempts: what to look at when one is. */
  lostAs: Record<string, number>
}

/** Waits (up to `limitMs`) until none of the burst's targets is PENDING or PUBLISHING; then judges each. */
export async function settleAndJudge(
  burst: Burst,
  databaseUrl: string,
  expected: number,
  limitMs: number,
): Promise<Verdict & { settledAt: number | null }> {
  const client = new pg.Client({ connectionString: databaseUrl })
  client.on('error', () => {})
  await client.connect()
  try {
    const ofBurst = `from targets t join posts p on p.id = t.post_id where t.workspace_id = $1 and p.caption like $2`
    const params = [burst.workspaceId, `${burst.prefix} %`]
    let settledAt: number | null = null
    const started = Date.now()
    while (Date.now() - started < limitMs) {
      const open = await client.query(
        `select count(*)::int as n ${ofBurst} and t.status in ('PENDING', 'PUBLISHING')`,
        params,
      )
      if (Number(open.rows[0].n) === 0) {
        settledAt = Date.now()
        break
      }
      await sleep(200)
    }
    const rows = (
      await client.query(
        `select t.status, t.error ->> 'code' as code, t.attempts, t.call_started_at is not null as started, p.caption ${ofBurst}`,
        params,
      )
    ).rows as Array<{ status: string; code: string | null; attempts: number; started: boolean; caption: string }>
    const sent = new Map<string, number>()
    for (const m of burst.messaging.messages) sent.set(m.text ?? '', (sent.get(m.text ?? '') ?? 0) + 1)
    const captions = new Set(rows.map((r) => r.caption))
    const published = rows.filter((r) => r.status === 'PUBLISHED' && sent.get(r.caption) === 1).length
    const unconfirmed = rows.filter((r) => r.status === 'FAILED' && r.code === 'unconfirmed').length
    // Lost: missing, never settled, or settled otherwise than published once or failed as unconfirmed.
    const lost = expected - published - unconfirmed
    const duplicated = [...sent.entries()].filter(([text, n]) => captions.has(text) && n > 1).length
    const lostAs: Record<string, number> = {}
    for (const r of rows) {
      const once = r.status === 'PUBLISHED' && sent.get(r.caption) === 1
      if (once || (r.status === 'FAILED' && r.code === 'unconfirmed')) continue
      const key = `${r.status}/${r.code ?? '-'}/attempts ${r.attempts}/${r.started ? 'call started' : 'no call'}/sent ${sent.get(r.caption) ?? 0}`
      lostAs[key] = (lostAs[key] ?? 0) + 1
    }
    return {
      targets: rows.length,
      settled: settledAt !== null,
      settledAt,
      published,
      unconfirmed,
      lost,
      duplicated,
      lostAs,
    }
  } finally {
    await client.end().catch(() => {})
  }
}
