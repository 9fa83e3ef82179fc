import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Webhook } from 'standardwebhooks'
import { parseNodeConfig } from '../src/config'
import { openNodeRuntime } from '../src/runtime/node-deps'
import { createEndpoint } from '../src/services/webhooks/endpoints'
import { newOutbox, recordEvent, sendOutbox } from '../src/services/webhooks/outbox'
import { createWorkspace } from '../src/services/workspaces'
import { startTestServices } from '../test/support/services'
import { percentile, round, type Benchmark } from './types'

const EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 10_000)
/** Transactions committing events at once (the engine settling targets in parallel). */
const PRODUCERS = 32

/**
 * EVENTS events, each committed in its own transaction (as a settled target writes its event), sent
 * by the Node runtime's in-process webhook queue to a local receiver that verifies every signature
 * with the standardwebhooks library: throughput and the time from commit to receipt.
 */
export const webhooksBenchmark: Benchmark = {
  name: 'webhooks',
  description: `${EVENTS.toLocaleString('en')} events to a local receiver, commit to verified receipt`,
  async run() {
    const rows: Array<Record<string, string | number>> = []
    if (!process.env.BENCH_WEBHOOKS_PG_ONLY) rows.push(...(await sendAll(null)))
    if (process.env.DATABASE_URL) {
      const services = await startTestServices({ databaseUrl: process.env.DATABASE_URL })
      try {
        rows.push(...(await sendAll({ DATABASE_URL: services.databaseUrl! })))
      } finally {
        await services.close()
      }
    }
    return rows
  },
}

async function sendAll(server: { DATABASE_URL: string } | null): Promise<Array<Record<string, string | number>>> {
  const dir = mkdtempSync(join(tmpdir(), 'sps-bench-webhooks-'))
  const { DATABASE_URL: _ignored, ...env } = process.env
  const committedAt = new Map<string, number>()
  const latencies: number[] = []
  let secret = ''
  let invalid = 0
  let duplicates = 0
  let lastReceipt = 0
  const seen = new Set<string>()
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]))
      try {
        new Webhook(secret).verify(body, headers)
      } catch {
        invalid++
      }
      const id = headers['webhook-id']!
      if (seen.has(id)) duplicates++
      seen.add(id)
      const at = committedAt.get(id)
      lastReceipt = performance.now()
      if (at !== undefined) latencies.push(lastReceipt - at)
      res.writeHead(204).end()
    })
  })
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()))
  const port = (receiver.address() as AddressInfo).port
  const runtime = await openNodeRuntime(
    parseNodeConfig({ ...env, ...server, DATA_DIR: dir, LOG_LEVEL: 'silent', PORT: '0', ALLOW_PRIVATE_URLS: 'true' }),
  )
  const { deps } = runtime
  try {
    const ws = await createWorkspace(deps.db, { name: 'bench', planId: 'agency' })
    const endpoint = await createEndpoint(deps, ws.id, {
      url: `http://127.0.0.1:${port}/hooks`,
      events: ['target.published'],
    })
    secret = endpoint.secret
    const started = performance.now()
    let next = 0
    const producer = async () => {
      while (next < EVENTS) {
        const i = next++
        const outbox = newOutbox()
        const id = await deps.db.transaction((tx) =>
          recordEvent(tx, outbox, {
            workspaceId: ws.id,
            type: 'target.published',
            data: { postId: `post_bench${i}`, target: { id: `tgt_bench${i}`, status: 'PUBLISHED' } },
            now: deps.clock.now(),
          }),
        )
        committedAt.set(id, performance.now())
        await sendOutbox(deps, outbox)
      }
    }
    await Promise.all(Array.from({ length: PRODUCERS }, producer))
    const committed = performance.now()
    const deadline = Date.now() + 600_000
    while (seen.size < EVENTS && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))
    latencies.sort((a, b) => a - b)
    const label = server ? 'PostgreSQL' : 'PGlite'
    const totalS = (lastReceipt - started) / 1000
    return [
      { measure: `${label}: events received (of ${EVENTS})`, value: seen.size },
      { measure: `${label}: signatures refused by standardwebhooks`, value: invalid },
      { measure: `${label}: duplicates received`, value: duplicates },
      { measure: `${label}: commit rate, events/s`, value: round(EVENTS / ((committed - started) / 1000), 0) },
      { measure: `${label}: throughput, events/s (first commit to last receipt)`, value: round(seen.size / totalS, 0) },
      { measure: `${label}: commit to receipt p50, ms`, value: round(percentile(latencies, 50), 1) },
      { measure: `${label}: commit to receipt p99, ms`, value: round(percentile(latencies, 99), 1) },
    ]
  } finally {
    await runtime.close()
    await new Promise((r) => receiver.close(() => r(undefined)))
    rmSync(dir, { recursive: true, force: true })
  }
}
