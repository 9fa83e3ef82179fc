/// <reference types="@cloudflare/workers-types" />
/// <reference types="@cloudflare/vitest-pool-workers/types" />
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { expect, inject, it } from 'vitest'
import worker from '../../src/entry/worker'
import { openNeon } from '../../src/db/neon'
import { sql } from 'drizzle-orm'

it('closes', async () => {
  const b = env as any
  const count = async () => {
    const c = openNeon({ url: b.DATABASE_URL, wsProxy: b.NEON_WS_PROXY, max: 1 })
    const r = await c.db.execute(sql`select count(*)::int as n from pg_stat_activity where datname = current_database()`)
    await c.close()
    return (r as any).rows[0].n
  }
  console.log('before', await count())
  const ctx = createExecutionContext()
  const res = await worker.fetch(new Request('https://x/v1/me', { headers: { Authorization: `Bearer ${inject('workerSmoke').token}` } }), b, ctx)
  console.log(res.status)
  console.log('after response', await count())
  await waitOnExecutionContext(ctx)
  console.log('after waitUntil', await count())
  await new Promise((r) => setTimeout(r, 500))
  console.log('after 500ms', await count())
})
