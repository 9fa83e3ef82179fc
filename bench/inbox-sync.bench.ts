import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { parseNodeConfig } from '../src/config'
import { resultRows } from '../src/db/table-rows'
import type { NetworkComment, NetworkPost } from '../src/networks/adapter'
import { openNodeRuntime } from '../src/runtime/node-deps'
import { addSandboxAccount } from '../src/services/accounts/accounts'
import { syncDueAccounts } from '../src/services/inbox/sync'
import { createWorkspace } from '../src/services/workspace/workspaces'
import { benchInboxAdapter, fetchEverything, startBenchNetwork } from './inbox-network'
import { type Benchmark, round } from './types'

const ACCOUNTS = 12
const COMMENTS = 1_000
const POSTS_PER_ACCOUNT = 4
/** Comments per page of the listing (networks answer 20 to 100). */
const PAGE = 25
const NOW = new Date('2026-11-21T10:00:00Z')
const minutesAgo = (m: number) => new Date(NOW.getTime() - m * 60_000)

function networkPost(id: string, m: number): NetworkPost {
  const metrics = {
    likes: 3,
    comments: 20,
    shares: null,
    views: 90,
    saves: null,
    clicks: null,
    impressions: null,
    reach: null,
  }
  return { platformPostId: id, permalink: null, text: `post ${id}`, publishedAt: minutesAgo(m), mediaUrls: [], metrics }
}

function networkComment(id: string, m: number): NetworkComment {
  return {
    externalId: id,
    parentExternalId: null,
    postExternalId: null,
    author: { externalId: `u-${id}`, name: `Reader ${id}`, handle: `reader_${id}`, avatarUrl: null },
    text: `A comment of a reader (${id}), about the post and with a question or two?`,
    createdAt: minutesAgo(m),
    permalink: null,
    fromAccount: false,
    hidden: null,
  }
}

/** 1,000 comments over 12 accounts (83 or 84 each), spread over each account's 4 posts. */
function fill(net: Awaited<ReturnType<typeof startBenchNetwork>>, accountIds: string[]) {
  for (const [a, accountId] of accountIds.entries()) {
    const count = Math.floor(COMMENTS / ACCOUNTS) + (a < COMMENTS % ACCOUNTS ? 1 : 0)
    const posts = Array.from({ length: POSTS_PER_ACCOUNT }, (_, p) => networkPost(`a${a}-p${p}`, 600 + p * 60))
    net.posts.set(accountId, posts)
    for (const [p, post] of posts.entries()) {
      const here = Array.from({ length: count }, (_, i) => i).filter((i) => i % POSTS_PER_ACCOUNT === p)
      net.comments.set(
        post.platformPostId,
        here.map((i) => networkComment(`a${a}-c${i}`, 300 - i)),
      )
    }
  }
}

/** The baseline's SQL: one multi-row insert per page of the listing, nothing else. */
const bareInsert = (workspaceId: string, accountId: string, page: NetworkComment[]) => sql`
  insert into inbox_comments (id, workspace_id, account_id, platform, kind, external_id, post_external_id,
    author_name, author_handle, text, from_account, state, created_at, received_at, updated_at)
  values ${sql.join(
    page.map(
      (c) => sql`(${`cmt_bare_${c.externalId}`}, ${workspaceId}, ${accountId}, 'FEDERATED_NET', 'comment',
        ${`bare-${c.externalId}`}, null, ${c.author.name}, ${c.author.handle}, ${c.text}, false, 'unread',
        ${c.createdAt.toISOString()}, now(), now())`,
    ),
    sql`, `,
  )}`

/**
 * The inbox sync reading 1,000 new comments across 12 accounts from a loopback HTTP network
 * (4 posts per account, pages of 25): passes of `syncDueAccounts` until every comment is stored,
 * timed with the calls the network answered; then a baseline in the same run, the same pages
 * fetched with no database plus one bare multi-row insert per page. Embedded database.
 */
export const inboxSyncBenchmark: Benchmark = {
  name: 'inbox-sync',
  description: `inbox sync: ${COMMENTS.toLocaleString('en')} new comments across ${ACCOUNTS} accounts (loopback HTTP network, PGlite)`,
  async run() {
    const dir = mkdtempSync(join(tmpdir(), 'sps-bench-inbox-sync-'))
    const net = await startBenchNetwork(PAGE)
    const adapter = benchInboxAdapter()
    const runtime = await openNodeRuntime(parseNodeConfig({ ...process.env, DATA_DIR: dir, LOG_LEVEL: 'silent' }), {
      networks: { adapterFor: () => adapter, baseUrlFor: () => net.url, fetch: globalThis.fetch },
    })
    try {
      const { deps } = runtime
      const ws = await createWorkspace(deps.db, { name: 'bench', planId: 'agency', timezone: 'UTC' })
      const accountIds: string[] = []
      for (let i = 0; i < ACCOUNTS; i++)
        accountIds.push(
          (
            await addSandboxAccount(deps.db, deps.cipher, {
              workspaceId: ws.id,
              platform: 'FEDERATED_NET',
              username: `s${i}`,
            })
          ).id,
        )
      fill(net, accountIds)
      const count = async (q: ReturnType<typeof sql>) => Number(resultRows(await deps.db.execute(q))[0]!.n)
      const stored = () => count(sql`select count(*) as n from inbox_comments where workspace_id = ${ws.id}`)
      const events = () => count(sql`select count(*) as n from webhook_events where type = 'comment.received'`)

      const start = performance.now()
      let passes = 0
      let reportedCalls = 0
      for (let now = NOW; (await stored()) < COMMENTS; now = new Date(now.getTime() + 60_000)) {
        if (++passes > 20) throw new Error(`the sync stored ${await stored()} of ${COMMENTS} comments in 20 passes`)
        reportedCalls += (await syncDueAccounts(deps, { now })).networkCalls
      }
      const syncMs = performance.now() - start
      const syncCalls = net.calls
      if ((await stored()) !== COMMENTS) throw new Error(`stored ${await stored()} comments, not ${COMMENTS}`)
      if ((await events()) !== COMMENTS) throw new Error(`${await events()} comment.received events, not ${COMMENTS}`)
      // A later pass finds nothing new: no row and no event twice.
      await syncDueAccounts(deps, { now: new Date(NOW.getTime() + 3_600_000) })
      if ((await stored()) !== COMMENTS || (await events()) !== COMMENTS)
        throw new Error('a second pass stored or announced comments again')

      const fetchStart = performance.now()
      const fetched = await fetchEverything(net, accountIds)
      const fetchMs = performance.now() - fetchStart
      const insertStart = performance.now()
      for (const page of fetched.comments) {
        const accountId = accountIds[Number(/^a(\d+)-/.exec(page[0]!.externalId)![1])]!
        await deps.db.execute(bareInsert(ws.id, accountId, page))
      }
      const insertMs = performance.now() - insertStart
      if ((await stored()) !== 2 * COMMENTS) throw new Error('the baseline did not insert every comment')
      const baselineMs = fetchMs + insertMs
      const rows: Array<Record<string, string | number>> = [
        { measure: 'sync: passes of syncDueAccounts until all stored', value: passes },
        { measure: 'sync: wall time ms', value: round(syncMs, 1) },
        { measure: 'sync: network calls counted at the fake', value: syncCalls },
        { measure: 'sync: network calls in the sync report', value: reportedCalls },
        { measure: 'sync: comments per second', value: round(COMMENTS / (syncMs / 1000), 0) },
        { measure: 'baseline: the same pages fetched, no database: calls', value: fetched.calls },
        { measure: 'baseline: the same pages fetched, no database: ms', value: round(fetchMs, 1) },
        { measure: `baseline: one bare insert per page (${fetched.comments.length}): ms`, value: round(insertMs, 1) },
        { measure: 'ratio sync / baseline (fetch + bare inserts)', value: round(syncMs / baselineMs) },
      ]
      return rows
    } finally {
      await runtime.close()
      await net.close()
      rmSync(dir, { recursive: true, force: true })
    }
  },
}
