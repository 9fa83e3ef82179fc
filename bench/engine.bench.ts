import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { parseNodeConfig } from '../src/config'
import type { NetworkAdapter } from '../src/networks/adapter'
import { openNodeRuntime } from '../src/runtime/node-deps'
import { addSandboxAccount } from '../src/services/accounts'
import { requeuePendingTargets } from '../src/services/publishing/sweep'
import { createWorkspace } from '../src/services/workspaces'
import { startTestServices } from '../test/support/services'
import { percentile, round, type Benchmark } from './types'

const TARGETS = Number(process.env.BENCH_ENGINE_TARGETS ?? 10_000)
const PER_POST = 10
const ADAPTER_MS = 100

/**
 * 10,000 targets due at the same moment against an adapter that takes 100 ms per call, drained
 * by the Node runtime's in-process queue: time to drain, duplicate network calls (must be 0),
 * and how late each publish started after its due time.
 */
export const engineBenchmark: Benchmark = {
  name: 'engine',
  description: `${TARGETS.toLocaleString('en')} targets due at once, adapter ${ADAPTER_MS} ms per call, in-process queue on Node`,
  async run() {
    const rows: Array<Record<string, string | number>> = []
    if (!process.env.BENCH_ENGINE_PG_ONLY)
      for (const concurrency of [64, 256]) rows.push(...(await drainOnce(concurrency, null)))
    // With DATABASE_URL, the same drain on that PostgreSQL through the Neon driver (a fresh database).
    if (process.env.DATABASE_URL) {
      const services = await startTestServices({ databaseUrl: process.env.DATABASE_URL })
      try {
        rows.push(
          ...(await drainOnce(64, { DATABASE_URL: services.databaseUrl!, NEON_WS_PROXY: services.neonWsProxy! })),
        )
      } finally {
        await services.close()
      }
    }
    return rows
  },
}

async function drainOnce(
  concurrency: number,
  server: { DATABASE_URL: string; NEON_WS_PROXY: string } | null,
): Promise<Array<Record<string, string | number>>> {
  const dir = mkdtempSync(join(tmpdir(), 'sps-bench-engine-'))
  const { DATABASE_URL: _ignored, ...env } = process.env
  const calls = new Map<string, number>()
  const lateness: number[] = []
  let dueAt = 0
  const adapter: NetworkAdapter = {
    async publish(input) {
      lateness.push(Date.now() - dueAt)
      calls.set(input.idempotencyKey, (calls.get(input.idempotencyKey) ?? 0) + 1)
      await new Promise((r) => setTimeout(r, ADAPTER_MS))
      return {
        status: 'published',
        platformPostId: `n_${input.idempotencyKey}`,
        permalink: `https://bench.invalid/${input.idempotencyKey}`,
      }
    },
  }
  const runtime = await openNodeRuntime(
    parseNodeConfig({
      ...env,
      ...server,
      DATA_DIR: dir,
      LOG_LEVEL: 'silent',
      PORT: '0',
      PUBLISH_CONCURRENCY: String(concurrency),
    }),
    { networks: { adapterFor: () => adapter, baseUrlFor: () => '', fetch } },
  )
  const { deps, publishQueue: queue } = runtime
  try {
    const ws = await createWorkspace(deps.db, { name: 'bench', planId: 'agency' })
    const accountIds: string[] = []
    for (let i = 0; i < PER_POST; i++)
      accountIds.push(
        (await addSandboxAccount(deps.db, deps.cipher, { workspaceId: ws.id, platform: 'CHAT_NET', username: `a${i}` }))
          .id,
      )
    dueAt = Date.now() + 5_000
    const due = new Date(dueAt).toISOString()
    const posts = TARGETS / PER_POST
    await deps.db.execute(sql`insert into posts (id, workspace_id, status, type, caption, media_ids, scheduled_at)
      select 'post_b' || g, ${ws.id}, 'SCHEDULED', 'IMAGE', 'bench ' || g, '[]'::jsonb, ${due}::timestamptz from generate_series(1, ${posts}) g`)
    await deps.db.execute(sql`insert into targets (id, post_id, workspace_id, account_id, platform, position, status, due_at)
      select 'tgt_b' || g || '_' || k, 'post_b' || g, ${ws.id}, (${sql.raw(`array['${accountIds.join("','")}']`)})[k], 'CHAT_NET', k - 1, 'PENDING', ${due}::timestamptz
      from generate_series(1, ${posts}) g, generate_series(1, ${PER_POST}) k`)
    const enqueueStart = performance.now()
    const enqueued = await requeuePendingTargets(deps)
    const enqueueMs = performance.now() - enqueueStart
    if (Date.now() > dueAt) throw new Error('seeding took longer than the lead time; raise it')

    for (;;) {
      await new Promise((r) => setTimeout(r, 200))
      if (queue.waiting === 0 && queue.running === 0 && Date.now() > dueAt) break
    }
    const drainMs = Date.now() - dueAt
    const settled = await deps.db.execute(
      sql`select status, count(*)::int as n from targets where workspace_id = ${ws.id} group by status`,
    )
    const byStatus = Object.fromEntries(
      (settled as unknown as { rows: Array<{ status: string; n: number }> }).rows.map((r) => [r.status, r.n]),
    )
    const duplicates = [...calls.values()].filter((n) => n > 1).length
    lateness.sort((a, b) => a - b)
    const label = `${server ? 'PostgreSQL' : 'PGlite'}, concurrency ${concurrency}`
    return [
      { measure: `${label}: handed to the queue at start-up`, value: enqueued },
      { measure: `${label}: start-up requeue, ms`, value: round(enqueueMs, 0) },
      { measure: `${label}: drain, s (due time to last result)`, value: round(drainMs / 1000, 2) },
      { measure: `${label}: published`, value: byStatus.PUBLISHED ?? 0 },
      { measure: `${label}: duplicate network calls`, value: duplicates },
      { measure: `${label}: lateness p50, s`, value: round(percentile(lateness, 50) / 1000, 2) },
      { measure: `${label}: lateness p99, s`, value: round(percentile(lateness, 99) / 1000, 2) },
      {
        measure: `${label}: floor (${TARGETS} x ${ADAPTER_MS} ms / concurrency), s`,
        value: round((TARGETS * ADAPTER_MS) / concurrency / 1000, 2),
      },
    ]
  } finally {
    await runtime.close()
    rmSync(dir, { recursive: true, force: true })
  }
}
