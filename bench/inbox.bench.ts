import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { getRequestListener } from '@hono/node-server'
import { sql } from 'drizzle-orm'
import { appOptions, createApp } from '../src/app'
import { parseNodeConfig } from '../src/config'
import { resultRows } from '../src/db/table-rows'
import { sha256Hex } from '../src/lib/crypto'
import { createMemoryRateLimiter } from '../src/infra/ratelimit/memory'
import { nodeClientIp } from '../src/runtime/client-ip'
import { openNodeRuntime } from '../src/runtime/node-deps'
import { addSandboxAccount } from '../src/services/accounts/accounts'
import { listInboxComments } from '../src/services/inbox/comments'
import { createToken } from '../src/services/tokens'
import { createWorkspace } from '../src/services/workspace/workspaces'
import { type Benchmark, percentile, round, timeInterleaved } from './types'

const COMMENTS = 100_000
const PAGE = 50
const ACCOUNTS = 4

/**
 * The page's SQL as one would write it by hand: the same rows, columns and order, no mapping; the
 * order spelled as the index holds it (NULLS LAST), so the index serves it.
 */
const bareSql = (workspaceId: string, after: string | null) => sql`
  select * from inbox_comments c
  where c.workspace_id = ${workspaceId} and c.kind = 'comment' and c.from_account = false
    ${after === null ? sql`` : sql`and (c.created_at, c.id) < (select x.created_at, x.id from inbox_comments x where x.id = ${after} and x.workspace_id = ${workspaceId})`}
  order by c.created_at desc nulls last, c.id desc nulls last limit ${PAGE + 1}`

/**
 * GET /v1/inbox/comments: a page of 50 over 100,000 comments of one workspace (four accounts, some
 * read, a few of the account's own replies), the first page and one deep in the list (by cursor),
 * through the service and through the route (token, rate limit, JSON), each against its bare SQL
 * measured in the same run, in turn. Embedded database.
 */
export const inboxBenchmark: Benchmark = {
  name: 'inbox',
  description: `inbox page of ${PAGE} over ${COMMENTS.toLocaleString('en')} comments: service and route vs bare SQL (PGlite)`,
  async run() {
    const dir = mkdtempSync(join(tmpdir(), 'sps-bench-inbox-'))
    const runtime = await openNodeRuntime(parseNodeConfig({ ...process.env, DATA_DIR: dir, LOG_LEVEL: 'silent' }), {
      rateLimiter: createMemoryRateLimiter({ rules: { default: { limit: 1_000_000, windowSec: 60 } } }),
    })
    try {
      const { deps } = runtime
      const ws = await createWorkspace(deps.db, { name: 'bench', planId: 'agency', timezone: 'UTC' })
      const accounts = []
      for (let i = 0; i < ACCOUNTS; i++)
        accounts.push(
          await addSandboxAccount(deps.db, deps.cipher, {
            workspaceId: ws.id,
            platform: 'MICROBLOG_NET',
            username: `a${i}`,
          }),
        )
      const accountArray = sql.raw(`array['${accounts.map((a) => a.id).join("','")}']`)
      const seedStart = performance.now()
      await deps.db.execute(sql`insert into inbox_comments (id, workspace_id, account_id, platform, kind, external_id,
          post_external_id, author_name, author_handle, text, from_account, state, read_at, created_at, received_at, updated_at)
        select 'cmt_bench' || lpad(g::text, 13, '0'), ${ws.id}, (${accountArray})[1 + g % ${ACCOUNTS}], 'MICROBLOG_NET',
          'comment', 'net_' || g, 'net_post_' || (g / 40), 'Author ' || (g % 997), 'author' || (g % 997),
          'A comment of a reader, number ' || g || ', about the post and with a question or two?', g % 50 = 0,
          case when g % 3 = 0 then 'read' else 'unread' end, case when g % 3 = 0 then now() end,
          timestamptz '2026-01-01T00:00:00Z' + (g || ' seconds')::interval, now(), now()
        from generate_series(1, ${COMMENTS}) g`)
      await deps.db.execute(sql`analyze`)
      await deps.db.execute(sql`checkpoint`)
      const seedMs = performance.now() - seedStart

      const token = await createToken(deps.db, ws.id, 'bench')
      const app = createApp(appOptions(deps, nodeClientIp(false)))
      // Node's request classes and the socket bindings @hono/node-server gives a request (foundation.bench.ts).
      getRequestListener(app.fetch)
      const bindings = { incoming: { socket: { remoteAddress: '127.0.0.1', remotePort: 40000, remoteFamily: 'IPv4' } } }
      const headers = { authorization: `Bearer ${token.token}` }
      const hash = await sha256Hex(token.token)
      const middle = `cmt_bench${String(COMMENTS / 2).padStart(13, '0')}`
      const check = async (cursor: string | null) => {
        const service = await listInboxComments(deps.db, ws.id, { limit: PAGE, cursor: cursor ?? undefined })
        const bare = resultRows(await deps.db.execute(bareSql(ws.id, cursor))).slice(0, PAGE)
        if (service.data.length !== PAGE || service.data.map((c) => c.id).join() !== bare.map((r) => r.id).join())
          throw new Error('the service and the bare SQL answer different pages')
      }
      await check(null)
      await check(middle)
      const viaRoute = (cursor: string | null) => async () => {
        const res = await app.request(
          `/v1/inbox/comments?limit=${PAGE}${cursor ? `&cursor=${cursor}` : ''}`,
          {
            headers,
          },
          bindings,
        )
        if (res.status !== 200) throw new Error(`inbox answered ${res.status}`)
        await res.text()
      }
      const viaService = (cursor: string | null) => () =>
        listInboxComments(deps.db, ws.id, { limit: PAGE, cursor: cursor ?? undefined })
      const viaSql = (cursor: string | null) => () => deps.db.execute(bareSql(ws.id, cursor))
      // What the route reads by hand: the token's row, then the page.
      const viaRouteSql = (cursor: string | null) => async () => {
        await deps.db.execute(sql`select id, workspace_id, revoked_at from api_tokens where token_hash = ${hash}`)
        await deps.db.execute(bareSql(ws.id, cursor))
      }
      const [svc1, sql1, route1, rsql1, svc2, sql2, route2, rsql2] = await timeInterleaved(300, [
        viaService(null),
        viaSql(null),
        viaRoute(null),
        viaRouteSql(null),
        viaService(middle),
        viaSql(middle),
        viaRoute(middle),
        viaRouteSql(middle),
      ])
      const row = (what: string, d: number[]) => ({
        what,
        runs: d.length,
        p50_ms: round(percentile(d, 50)),
        p95_ms: round(percentile(d, 95)),
      })
      const ratio = (what: string, a: number[], b: number[]) => ({
        what,
        p50: round(percentile(a, 50) / percentile(b, 50)),
        p95: round(percentile(a, 95) / percentile(b, 95)),
      })
      return [
        { what: 'seed', comments: COMMENTS, ms: round(seedMs, 0) },
        row('first page: bare SQL', sql1!),
        row('first page: listInboxComments', svc1!),
        row('first page: GET /v1/inbox/comments', route1!),
        row('page at the middle (cursor): bare SQL', sql2!),
        row('page at the middle (cursor): listInboxComments', svc2!),
        row('page at the middle (cursor): GET /v1/inbox/comments', route2!),
        ratio('service / bare SQL, first page (target <= 1.2)', svc1!, sql1!),
        ratio('service / bare SQL, cursor page (target <= 1.2)', svc2!, sql2!),
        row('first page: bare SQL of the route (token + page)', rsql1!),
        row('page at the middle (cursor): bare SQL of the route (token + page)', rsql2!),
        ratio('route / bare SQL of the route, first page', route1!, rsql1!),
        ratio('route / bare SQL of the route, cursor page', route2!, rsql2!),
        ratio('route / bare page SQL alone, first page', route1!, sql1!),
        ratio('route / bare page SQL alone, cursor page', route2!, sql2!),
      ]
    } finally {
      await runtime.close()
      rmSync(dir, { recursive: true, force: true })
    }
  },
}
