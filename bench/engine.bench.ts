import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { PGlite } from '@electric-sql/pglite'
import { sql } from 'drizzle-orm'
import { parseNodeConfig } from '../src/config'
import type { Deps } from '../src/deps'
import { DEFAULT_PUBLISH_CONCURRENCY } from '../src/infra/publish-queue/in-process'
import type { NetworkAdapter } from '../src/networks/adapter'
import { openNodeRuntime } from '../src/runtime/node-deps'
import type { PlatformId } from '../src/domain/vocabulary'
import { sandboxDestinations } from '../src/networks/sandbox/boards'
import { addSandboxAccount } from '../src/services/accounts/accounts'
import { requeuePendingTargets } from '../src/services/publishing/sweep'
import { createWorkspace } from '../src/services/workspace/workspaces'
import { postgresDriver, startPostgresDatabase } from './load-server'
import { countRoundTrips } from './round-trips'
import { percentile, round, type Benchmark } from './types'

/** `npm run bench -- engine --full` drains the issue's 10,000 targets; the default run is shorter. */
const FULL = process.argv.includes('--full')
export const TARGETS = Number(process.env.BENCH_ENGINE_TARGETS ?? (FULL ? 10_000 : 2_000))
/** The steady stream: targets per second, for this many seconds. */
const STREAM_RATE = 100
const STREAM_SECONDS = Number(process.env.BENCH_ENGINE_STREAM_SECONDS ?? (FULL ? 60 : 20))
export const PER_POST = 10
export const ADAPTER_MS = 100
/** Time between seeding and the first due time (seeding and the start-up hand-over happen before). */
const LEAD_MS = 5_000

type Server = { DATABASE_URL: string; NEON_WS_PROXY?: string } | null
type Rows = Array<Record<string, string | number>>

interface Case {
  label: string
  concurrency: number
  /** Engine settings for the run (env of the Node runtime), e.g. the claim batch. */
  env?: Record<string, string>
  server: Server
  /** Each target's due time, in ms after the first one: all 0 for a burst, spread for a stream. */
  dueOffsetMs: (index: number) => number
  count: number
}

/**
 * The publish engine on the Node runtime's in-process queue, against an adapter that takes 100 ms
 * per call: (1) a burst of targets due at the same moment (time to drain, lateness after the due
 * time, duplicate network calls: must be 0); (2) a steady stream of 100 targets a second (lateness
 * p50/p99); with the database round trips per publish (statements, BEGIN and COMMIT included) on
 * PGlite. Each case runs with one claim per delivery (the baseline) and with batch claims.
 * `BENCH_ENGINE_TARGETS`, `BENCH_ENGINE_STREAM_SECONDS` change the sizes.
 */
export const engineBenchmark: Benchmark = {
  name: 'engine',
  description: `${TARGETS.toLocaleString('en')} targets due at once and a ${STREAM_RATE}/s stream for ${STREAM_SECONDS} s, adapter ${ADAPTER_MS} ms per call, in-process queue on Node`,
  async run() {
    const rows: Rows = []
    const burst = (concurrency: number, server: Server, label: string, env?: Record<string, string>): Case => ({
      label: `${label}, burst, concurrency ${concurrency}`,
      concurrency,
      server,
      count: TARGETS,
      dueOffsetMs: () => 0,
      ...(env ? { env } : {}),
    })
    // Baseline in the same run: one claim per delivery (PUBLISH_CLAIM_BATCH=1), as before the batch claim.
    const single = { PUBLISH_CLAIM_BATCH: '1' }
    const stream = (label: string, env?: Record<string, string>): Case => ({
      label: `PGlite, ${label}, stream ${STREAM_RATE}/s`,
      concurrency: DEFAULT_PUBLISH_CONCURRENCY,
      server: null,
      count: STREAM_RATE * STREAM_SECONDS,
      dueOffsetMs: (i) => Math.floor((i * 1000) / STREAM_RATE),
      ...(env ? { env } : {}),
    })
    if (!process.env.BENCH_ENGINE_PG_ONLY) {
      rows.push(
        ...(await runCase(burst(DEFAULT_PUBLISH_CONCURRENCY, null, 'PGlite, single claims (baseline)', single))),
      )
      rows.push(...(await runCase(burst(DEFAULT_PUBLISH_CONCURRENCY, null, 'PGlite, batch claims'))))
      // The concurrency that was the default before (64), for comparison.
      if (FULL) rows.push(...(await runCase(burst(64, null, 'PGlite, batch claims'))))
      rows.push(...(await runCase(stream('single claims (baseline)', single))))
      rows.push(...(await runCase(stream('batch claims'))))
    }
    // With DATABASE_URL, the same burst on that PostgreSQL (a fresh database): node-postgres where the
    // project has it, else the Neon driver (BENCH_PG_DRIVER chooses).
    if (process.env.DATABASE_URL)
      for (const [label, env, concurrency] of [
        ['PostgreSQL, single claims (baseline)', single, DEFAULT_PUBLISH_CONCURRENCY],
        // The pool follows the concurrency (a quarter of it, at most 16 connections).
        ['PostgreSQL, batch claims', undefined, DEFAULT_PUBLISH_CONCURRENCY],
        // The concurrency that was the default before (64), for comparison.
        ...(FULL ? ([['PostgreSQL, batch claims', undefined, 64]] as const) : []),
      ] as const) {
        // The stand-in for Neon's proxy runs in a process of its own, as Neon's runs on other machines:
        // in this process its relaying took a third of the thread the engine runs on.
        const database = await startPostgresDatabase(process.env.DATABASE_URL, { proxy: postgresDriver() === 'neon' })
        try {
          const server = {
            DATABASE_URL: database.url,
            ...(database.wsProxy ? { NEON_WS_PROXY: database.wsProxy } : {}),
          }
          rows.push(...(await runCase(burst(concurrency, server, label, env))))
        } finally {
          await database.close()
        }
      }
    return rows
  },
}

async function runCase(c: Case): Promise<Rows> {
  const dir = mkdtempSync(join(tmpdir(), 'sps-bench-engine-'))
  const { DATABASE_URL: _ignored, ...env } = process.env
  const calls = new Map<string, number>()
  const lateness: number[] = []
  const dueOf = new Map<string, number>()
  let firstDue = 0
  const adapter: NetworkAdapter = {
    async publish(input) {
      lateness.push(Date.now() - (firstDue + (dueOf.get(input.idempotencyKey) ?? 0)))
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
      ...c.server,
      ...c.env,
      DATA_DIR: dir,
      LOG_LEVEL: 'silent',
      PORT: '0',
      PUBLISH_CONCURRENCY: String(c.concurrency),
    }),
    { networks: { adapterFor: () => adapter, baseUrlFor: () => '', fetch } },
  )
  const { deps, publishQueue: queue } = runtime
  try {
    firstDue = Date.now() + LEAD_MS
    const offsets = Array.from({ length: c.count }, (_, i) => c.dueOffsetMs(i))
    const ws = await seedTargets(deps, { firstDue, offsets })
    for (let g = 1; g <= c.count / PER_POST; g++)
      for (let k = 1; k <= PER_POST; k++) dueOf.set(`tgt_b${g}_${k}`, offsets[(g - 1) * PER_POST + k - 1]!)
    const lastDue = firstDue + Math.max(...offsets)

    const client = c.server ? null : (deps.db as unknown as { $client: PGlite }).$client
    const drain = async () => {
      const enqueueStart = performance.now()
      const enqueued = await requeuePendingTargets(deps)
      const enqueueMs = performance.now() - enqueueStart
      if (Date.now() > firstDue) throw new Error('seeding took longer than the lead time; raise it')
      for (;;) {
        await new Promise((r) => setTimeout(r, 100))
        if (queue.waiting === 0 && queue.running === 0 && Date.now() > lastDue) break
      }
      return { enqueued, enqueueMs, drainMs: Date.now() - firstDue }
    }
    let roundTrips: number | null = null
    let drained: Awaited<ReturnType<typeof drain>>
    if (client) {
      const counted = await countRoundTrips(client, drain)
      drained = counted.result
      roundTrips = counted.roundTrips
    } else drained = await drain()

    const settled = await deps.db.execute(
      sql`select status, count(*)::int as n from targets where workspace_id = ${ws.id} group by status`,
    )
    const byStatus = Object.fromEntries(
      (settled as unknown as { rows: Array<{ status: string; n: number }> }).rows.map((r) => [r.status, r.n]),
    )
    const published = byStatus.PUBLISHED ?? 0
    const duplicates = [...calls.values()].filter((n) => n > 1).length
    lateness.sort((a, b) => a - b)
    const label = c.label
    const out: Rows = [
      {
        measure: `${label}: targets handed to the queue (start-up requeue, ms)`,
        value: `${drained.enqueued} (${round(drained.enqueueMs, 0)})`,
      },
      { measure: `${label}: drain, s (first due time to last result)`, value: round(drained.drainMs / 1000, 2) },
      { measure: `${label}: published / duplicate network calls`, value: `${published} / ${duplicates}` },
      { measure: `${label}: lateness p50, s`, value: round(percentile(lateness, 50) / 1000, 2) },
      { measure: `${label}: lateness p99, s`, value: round(percentile(lateness, 99) / 1000, 2) },
    ]
    if (roundTrips !== null && published > 0)
      out.push({ measure: `${label}: database round trips per publish`, value: round(roundTrips / published, 1) })
    if (c.dueOffsetMs(c.count - 1) === 0)
      out.push({
        measure: `${label}: floor (${c.count} x ${ADAPTER_MS} ms / concurrency), s`,
        value: round((c.count * ADAPTER_MS) / c.concurrency / 1000, 2),
      })
    return out
  } finally {
    await runtime.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * The networks of a post's PER_POST targets: the chat network and the eight that take a title,
 * a destination chosen per target or per-target options, so a burst carries those columns too.
 */
export const MIX: PlatformId[] = [
  'CHAT_NET',
  'FORUM_NET',
  'WORKCHAT_NET',
  'COMMUNITY_NET',
  'BLOG_NET',
  'LOCAL_NET',
  'RELAY_NET',
  'SITE_NET',
  'DEVBLOG_NET',
  'CHAT_NET',
]

/**
 * A workspace with PER_POST sandbox accounts (one per MIX entry) and `offsets.length / PER_POST`
 * scheduled posts of PER_POST targets each, with a title, a destination per account whose network
 * has them and options; target k of post g (`tgt_b<g>_<k>`) due `offsets[(g - 1) * PER_POST + k - 1]`
 * ms after `firstDue`.
 */
export async function seedTargets(
  deps: Deps,
  options: { firstDue: number; offsets: number[] },
): Promise<{ id: string }> {
  const { firstDue, offsets } = options
  const ws = await createWorkspace(deps.db, { name: 'bench', planId: 'agency' })
  const accountIds: string[] = []
  const destinations: Record<string, string> = {}
  for (const [i, platform] of MIX.slice(0, PER_POST).entries()) {
    const { id } = await addSandboxAccount(deps.db, deps.cipher, { workspaceId: ws.id, platform, username: `a${i}` })
    accountIds.push(id)
    const destination = sandboxDestinations(platform, id)[0]
    if (destination) destinations[id] = destination.id
  }
  const targetOptions = Object.fromEntries(
    accountIds
      .filter((_, i) => MIX[i] === 'FORUM_NET' || MIX[i] === 'COMMUNITY_NET')
      .map((id) => [id, { nsfw: false }]),
  )
  const list = (values: string[]) => sql.raw(`array['${values.join("','")}']`)
  const posts = offsets.length / PER_POST
  const first = new Date(firstDue).toISOString()
  await deps.db.execute(sql`insert into posts (id, workspace_id, status, type, caption, title, destinations, target_options, media_ids, scheduled_at)
    select 'post_b' || g, ${ws.id}, 'SCHEDULED', 'IMAGE', 'bench ' || g, 'bench title ' || g, ${JSON.stringify(destinations)}::jsonb,
      ${JSON.stringify(targetOptions)}::jsonb, '[]'::jsonb, ${first}::timestamptz from generate_series(1, ${posts}) g`)
  await deps.db.execute(sql`insert into targets (id, post_id, workspace_id, account_id, platform, position, status, due_at)
    select 'tgt_b' || g || '_' || k, 'post_b' || g, ${ws.id}, (${list(accountIds)})[k], (${list(MIX.slice(0, PER_POST))})[k], k - 1, 'PENDING',
      ${first}::timestamptz + ((${sql.raw(`array[${offsets.join(',')}]::int[]`)})[(g - 1) * ${PER_POST} + k] * interval '1 millisecond')
    from generate_series(1, ${posts}) g, generate_series(1, ${PER_POST}) k`)
  return ws
}
