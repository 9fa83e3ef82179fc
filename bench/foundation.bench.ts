import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getRequestListener } from '@hono/node-server'
import { sql } from 'drizzle-orm'
import { appOptions, createApp } from '../src/app'
import { nodeClientIp } from '../src/runtime/client-ip'
import { parseNodeConfig } from '../src/config'
import { createMemoryRateLimiter } from '../src/infra/ratelimit/memory'
import { openNodeRuntime } from '../src/runtime/node-deps'
import { bootstrapDemoWorkspace } from '../src/services/demo'
import { sha256Hex } from '../src/lib/crypto'
import { percentile, round, timeInterleaved, type Benchmark } from './types'

/** Wall time from spawning `npm start`'s process to its first answer on /v1/me. */
async function bootOnce(dataDir: string): Promise<number> {
  const started = performance.now()
  const child = spawn(process.execPath, ['bin/start.js'], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'error' },
  })
  const url = await new Promise<string>((resolve, reject) => {
    let out = ''
    child.stdout.on('data', (d) => {
      out += d
      const m = /on (http:\/\/\S+) \(/.exec(out)
      if (m) resolve(m[1]!)
    })
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)))
  })
  await (await fetch(`${url}/v1/me`)).arrayBuffer()
  const elapsed = performance.now() - started
  await new Promise((r) => {
    child.once('exit', r)
    child.kill('SIGTERM')
  })
  return elapsed
}

export const foundationBenchmark: Benchmark = {
  name: 'foundation',
  description: '`npm start` boot (empty and existing DATA_DIR) and GET /v1/me against the bare SQL it needs',
  async run() {
    const dir = mkdtempSync(join(tmpdir(), 'sps-bench-'))
    try {
      const cold = await bootOnce(dir)
      const warm = await bootOnce(dir)
      // Measure the work, not the limiter's refusals: one client sends every request here.
      const runtime = await openNodeRuntime(parseNodeConfig({ DATA_DIR: join(dir, 'requests'), LOG_LEVEL: 'silent' }), {
        rateLimiter: createMemoryRateLimiter({ rules: { default: { limit: 1_000_000, windowSec: 60 } } }),
      })
      const demo = (await bootstrapDemoWorkspace(runtime.deps))!
      const app = createApp(appOptions(runtime.deps, nodeClientIp(false)))
      // As `npm start` serves it: @hono/node-server puts its lightweight Request and Response in place of
      // Node's (undici's) when it makes its listener, so requests here use the same classes.
      getRequestListener(app.fetch)
      const headers = { authorization: `Bearer ${demo.token}` }
      // The bindings @hono/node-server gives every request (the client address is read from the socket);
      // without them each request paid for an exception the server never throws.
      const bindings = { incoming: { socket: { remoteAddress: '127.0.0.1', remotePort: 40000, remoteFamily: 'IPv4' } } }
      const db = runtime.deps.db
      const hash = await sha256Hex(demo.token)
      const viaApi = async () => {
        const res = await app.request('/v1/me', { headers }, bindings)
        if (res.status !== 200) throw new Error(`GET /v1/me answered ${res.status}`)
        await res.arrayBuffer()
      }
      // The same reads as hand-written SQL: the token lookup, then workspace, plan and the five counts the
      // answer shows (members are its seats; before, this baseline left that count out).
      const bareSql = async () => {
        await db.execute(sql`select id, workspace_id, revoked_at from api_tokens where token_hash = ${hash}`)
        await db.execute(sql`select w.*, p.*,
          (select count(*) from accounts a where a.workspace_id = w.id and a.status <> 'DISCONNECTED'),
          (select count(*) from accounts a where a.workspace_id = w.id),
          (select count(*) from posts x where x.workspace_id = w.id and x.created_at >= date_trunc('month', now() at time zone w.timezone) at time zone w.timezone),
          (select count(*) from posts x where x.workspace_id = w.id and x.status = 'SCHEDULED'),
          (select count(*) from memberships m where m.workspace_id = w.id)
          from workspaces w join plans p on p.id = w.plan_id where w.id = ${demo.workspaceId}`)
      }
      // One after the other, request by request, so both see the same moments of the machine. First right
      // after the start (50 of each, then 1,000 timed), then as a server that has been answering for a while
      // (the next 3,000, then 1,000 timed): V8 goes on optimizing the API's code over the first few thousand
      // requests (1.41, 1.38, 1.33, then 1.25-1.29 from the fourth thousand on, in one run).
      const [apiEarly, bareEarly] = (await timeInterleaved(1000, [viaApi, bareSql])) as [number[], number[]]
      const [api, bare] = (await timeInterleaved(1000, [viaApi, bareSql], 3000)) as [number[], number[]]
      await runtime.close()
      return [
        { measure: 'npm start, empty DATA_DIR (initdb + migrations + demo), ms', value: round(cold, 0) },
        { measure: 'npm start, existing DATA_DIR, ms', value: round(warm, 0) },
        { measure: 'GET /v1/me p50 ms (PGlite, in process)', value: round(percentile(api, 50)) },
        { measure: 'GET /v1/me p99 ms', value: round(percentile(api, 99)) },
        { measure: 'bare SQL of /v1/me p50 ms', value: round(percentile(bare, 50)) },
        { measure: 'ratio API / bare SQL (p50)', value: round(percentile(api, 50) / percentile(bare, 50)) },
        {
          measure: 'same, requests 51-1,050 of the process (V8 still optimizing)',
          value: round(percentile(apiEarly, 50) / percentile(bareEarly, 50)),
        },
      ]
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  },
}
