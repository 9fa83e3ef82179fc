import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { and, eq, isNotNull } from 'drizzle-orm'
import { Webhook } from 'standardwebhooks'
import { parseNodeConfig } from '../src/config'
import { webhookAttempts, webhookDeliveries } from '../src/db/schema'
import type { Deps } from '../src/deps'
import { openNodeRuntime } from '../src/runtime/node-deps'
import { deliverWebhook, sweepWebhooks } from '../src/services/webhooks/deliver'
import { createEndpoint } from '../src/services/webhooks/endpoints'
import { newOutbox, recordEvent, sendOutbox } from '../src/services/webhooks/outbox'
import { createWorkspace } from '../src/services/workspace/workspaces'
import { startTestServices } from '../test/support/services'
import { percentile, round, type Benchmark } from './types'

/** The backlog drained by the batch worker (the 10,000), and by the one-at-a-time baseline. */
const BACKLOG = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 10_000)
const BASELINE = Number(process.env.BENCH_WEBHOOK_BASELINE_EVENTS ?? 2_000)
/** The steady stream: events committed per second, for this long. */
const STEADY_RATE = 200
const STEADY_SECONDS = Number(process.env.BENCH_WEBHOOK_STEADY_SECONDS ?? 15)
/** Attempts at once in the baseline: the in-process queue's concurrency before batches. */
const BASELINE_CONCURRENCY = 32

type Row = Record<string, string | number>

/**
 * Per database (PGlite; PostgreSQL too when DATABASE_URL is set), to a local receiver that verifies
 * every signature with the standardwebhooks library and counts each webhook-id:
 * - backlog: BACKLOG events committed with no trigger (as a crash leaves them), then drained by the
 *   sweep (batch claims): events per second from the first claim to the last receipt;
 * - baseline: BASELINE events drained one claim per delivery, 32 at once (the worker as it was);
 * - steady: 200 events committed per second for STEADY_SECONDS, each sent by the in-process queue
 *   right after its commit: commit to receipt p50 and p99.
 */
export const webhooksBenchmark: Benchmark = {
  name: 'webhooks',
  description: `a ${BACKLOG.toLocaleString('en')}-event backlog drained, one-at-a-time baseline, ${STEADY_RATE} events/s steady`,
  async run() {
    const rows: Row[] = []
    if (!process.env.BENCH_WEBHOOKS_PG_ONLY) rows.push(...(await measureDatabase(null)))
    if (process.env.DATABASE_URL) {
      const services = await startTestServices({ databaseUrl: process.env.DATABASE_URL })
      try {
        rows.push(...(await measureDatabase({ DATABASE_URL: services.databaseUrl! })))
      } finally {
        await services.close()
      }
    }
    return rows
  },
}

interface Receiver {
  url: string
  seen: Set<string>
  committedAt: Map<string, number>
  latencies: number[]
  invalid: number
  duplicates: number
  lastReceipt: number
  secret: string
  workspaceId: string
  server: Server
}

async function startReceiver(): Promise<Receiver> {
  const r = { seen: new Set(), committedAt: new Map(), latencies: [], invalid: 0, duplicates: 0 } as unknown as Receiver
  r.lastReceipt = 0
  r.server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]))
      try {
        new Webhook(r.secret).verify(body, headers)
      } catch {
        r.invalid++
      }
      const id = headers['webhook-id']!
      if (r.seen.has(id)) r.duplicates++
      r.seen.add(id)
      r.lastReceipt = performance.now()
      const at = r.committedAt.get(id)
      if (at !== undefined) r.latencies.push(r.lastReceipt - at)
      res.writeHead(204).end()
    })
  })
  await new Promise<void>((done) => r.server.listen(0, '127.0.0.1', () => done()))
  r.url = `http://127.0.0.1:${(r.server.address() as AddressInfo).port}/hooks`
  return r
}

/** A workspace with one endpoint on a fresh receiver. */
async function endpointOn(deps: Deps): Promise<{ workspaceId: string; receiver: Receiver }> {
  const receiver = await startReceiver()
  const ws = await createWorkspace(deps.db, { name: 'bench', planId: 'agency' })
  const endpoint = await createEndpoint(deps, ws.id, { url: receiver.url, events: ['target.published'] })
  receiver.secret = endpoint.secret
  receiver.workspaceId = ws.id
  return { workspaceId: ws.id, receiver }
}

/** One event committed in its own transaction (as a settled target writes it); triggers the queue when `send`. */
async function commitEvent(
  deps: Deps,
  workspaceId: string,
  i: number,
  committed?: (eventId: string) => void,
): Promise<string> {
  const send = committed !== undefined
  const outbox = newOutbox()
  const id = await deps.db.transaction((tx) =>
    recordEvent(tx, send ? outbox : null, {
      workspaceId,
      type: 'target.published',
      data: { postId: `post_bench${i}`, target: { id: `tgt_bench${i}`, status: 'PUBLISHED' } },
      now: deps.clock.now(),
    }),
  )
  if (committed) {
    committed(id)
    await sendOutbox(deps, outbox)
  }
  return id
}

async function commitBacklog(deps: Deps, workspaceId: string, count: number): Promise<string[]> {
  const ids: string[] = []
  let next = 0
  const producer = async () => {
    while (next < count) ids.push(await commitEvent(deps, workspaceId, next++))
  }
  await Promise.all(Array.from({ length: 32 }, producer))
  return ids
}

async function waitFor(receiver: Receiver, count: number): Promise<void> {
  const deadline = Date.now() + 600_000
  while (receiver.seen.size < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
}

/** The workspace's failed attempts by class (a timeout is retried: its event arrives again). */
async function failedAttempts(deps: Deps, workspaceId: string): Promise<string> {
  const rows = await deps.db
    .select({ errorClass: webhookAttempts.errorClass })
    .from(webhookAttempts)
    .innerJoin(webhookDeliveries, eq(webhookDeliveries.id, webhookAttempts.deliveryId))
    .where(and(eq(webhookDeliveries.workspaceId, workspaceId), isNotNull(webhookAttempts.errorClass)))
  const counts = new Map<string, number>()
  for (const r of rows) counts.set(r.errorClass!, (counts.get(r.errorClass!) ?? 0) + 1)
  return [...counts].map(([k, n]) => `${k} ${n}`).join(', ') || 'none'
}

const deliveryIds = async (deps: Deps, workspaceId: string): Promise<string[]> => {
  const rows = await deps.db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.workspaceId, workspaceId))
  return rows.map((r) => r.id)
}

async function measureDatabase(server: { DATABASE_URL: string } | null): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'sps-bench-webhooks-'))
  const { DATABASE_URL: _ignored, ...env } = process.env
  const runtime = await openNodeRuntime(
    parseNodeConfig({ ...env, ...server, DATA_DIR: dir, LOG_LEVEL: 'silent', PORT: '0', ALLOW_PRIVATE_URLS: 'true' }),
  )
  const { deps } = runtime
  const label = server ? 'PostgreSQL' : 'PGlite'
  const receivers: Receiver[] = []
  try {
    const rows: Row[] = []
    const result = async (what: string, r: Receiver, n: number, ms: number, extra: Row = {}) => {
      const failed = await failedAttempts(deps, r.workspaceId)
      rows.push({
        database: label,
        what,
        events: n,
        received: r.seen.size,
        duplicates: r.duplicates,
        'signatures refused': r.invalid,
        'events/s': round(r.seen.size / (ms / 1000), 0),
        'failed attempts': failed,
        ...extra,
      })
    }

    // The one-at-a-time baseline: one claim, one send, one settling transaction per delivery.
    const base = await endpointOn(deps)
    receivers.push(base.receiver)
    await commitBacklog(deps, base.workspaceId, BASELINE)
    const ids = await deliveryIds(deps, base.workspaceId)
    let startedAt = performance.now()
    let next = 0
    const one = async () => {
      while (next < ids.length) await deliverWebhook(deps, ids[next++]!)
    }
    await Promise.all(Array.from({ length: BASELINE_CONCURRENCY }, one))
    await waitFor(base.receiver, BASELINE)
    await result(
      'baseline: backlog, one delivery per claim, 32 at once',
      base.receiver,
      BASELINE,
      base.receiver.lastReceipt - startedAt,
    )
    const baselineRate = base.receiver.seen.size / ((base.receiver.lastReceipt - startedAt) / 1000)

    // The backlog, drained by the sweep's batch claims.
    const backlog = await endpointOn(deps)
    receivers.push(backlog.receiver)
    await commitBacklog(deps, backlog.workspaceId, BACKLOG)
    startedAt = performance.now()
    while (backlog.receiver.seen.size < BACKLOG) {
      const { attempted } = await sweepWebhooks(deps, { workspaceId: backlog.workspaceId })
      if (attempted === 0) break
    }
    await waitFor(backlog.receiver, BACKLOG)
    const drainMs = backlog.receiver.lastReceipt - startedAt
    await result('backlog, batch claims (the sweep)', backlog.receiver, BACKLOG, drainMs, {
      'x baseline': round(backlog.receiver.seen.size / (drainMs / 1000) / baselineRate, 1),
    })

    // The steady stream through the in-process queue.
    const steady = await endpointOn(deps)
    receivers.push(steady.receiver)
    const total = STEADY_RATE * STEADY_SECONDS
    startedAt = performance.now()
    const commits: Array<Promise<void>> = []
    for (let i = 0; i < total; i++) {
      const due = startedAt + (i * 1000) / STEADY_RATE
      const wait = due - performance.now()
      if (wait > 0) await new Promise((r) => setTimeout(r, wait))
      commits.push(
        commitEvent(deps, steady.workspaceId, i, (id) => steady.receiver.committedAt.set(id, performance.now())).then(
          () => undefined,
        ),
      )
    }
    await Promise.all(commits)
    const committedRate = total / ((performance.now() - startedAt) / 1000)
    await waitFor(steady.receiver, total)
    const latencies = steady.receiver.latencies.sort((a, b) => a - b)
    await result(
      `steady: ${STEADY_RATE} events/s committed, queue`,
      steady.receiver,
      total,
      steady.receiver.lastReceipt - startedAt,
      {
        'committed/s': round(committedRate, 0),
        'commit to receipt p50 ms': round(percentile(latencies, 50), 0),
        'commit to receipt p99 ms': round(percentile(latencies, 99), 0),
      },
    )
    return rows
  } finally {
    await runtime.close()
    await Promise.all(receivers.map((r) => new Promise((done) => r.server.close(() => done(undefined)))))
    rmSync(dir, { recursive: true, force: true })
  }
}
