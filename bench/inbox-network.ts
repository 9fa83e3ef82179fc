/**
 * The benchmark's loopback network for the inbox sync: real HTTP on 127.0.0.1 (node:http), per
 * account (the `account` query value) a newest-first listing of posts, comments per post and
 * mentions, each paged by an offset cursor (`next`), counting every request it answers; and an
 * adapter that reads it over the registry's fetch the way the real adapters read theirs. (The
 * tests' fake, test/fakes/inbox-network.ts, closes itself through vitest's afterAll, so it cannot
 * run here.)
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { NetworkAdapter, NetworkComment, NetworkPost } from '../src/networks/adapter'
import { NetworkFailure } from '../src/networks/http'

export interface BenchNetwork {
  url: string
  posts: Map<string, NetworkPost[]>
  comments: Map<string, NetworkComment[]>
  mentions: Map<string, NetworkComment[]>
  /** Requests answered so far. */
  calls: number
  close(): Promise<void>
}

export async function startBenchNetwork(pageSize: number): Promise<BenchNetwork> {
  const net = { posts: new Map(), comments: new Map(), mentions: new Map(), calls: 0 } as Omit<
    BenchNetwork,
    'url' | 'close'
  >
  const listOf = (path: string, account: string): unknown[] | null => {
    if (path === '/posts') return net.posts.get(account) ?? []
    if (path === '/mentions') return net.mentions.get(account) ?? []
    const m = /^\/posts\/([^/]+)\/comments$/.exec(path)
    return m ? (net.comments.get(decodeURIComponent(m[1]!)) ?? []) : null
  }
  const server = createServer((req, res) => {
    net.calls++
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    const list = req.method === 'GET' ? listOf(url.pathname, url.searchParams.get('account') ?? '') : null
    if (!list) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}')
      return
    }
    const start = Number(url.searchParams.get('cursor') ?? 0)
    const next = start + pageSize < list.length ? String(start + pageSize) : null
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ items: list.slice(start, start + pageSize), next }))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return Object.assign(net, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections()
        server.close((err) => (err ? reject(err) : resolve()))
      }),
  })
}

interface Page {
  items: any[]
  next: string | null
}

async function get(
  input: { fetch: typeof fetch; baseUrl: string; accountId: string },
  path: string,
  cursor: string | null,
) {
  const url = new URL(path, input.baseUrl)
  url.searchParams.set('account', input.accountId)
  if (cursor) url.searchParams.set('cursor', cursor)
  const res = await input.fetch(url)
  if (!res.ok) throw new NetworkFailure('transient', `The network answered ${res.status}.`)
  return (await res.json()) as Page
}

const revive = <T extends { createdAt?: unknown; publishedAt?: unknown }>(x: T): T => ({
  ...x,
  ...(x.createdAt ? { createdAt: new Date(x.createdAt as string) } : {}),
  ...(x.publishedAt ? { publishedAt: new Date(x.publishedAt as string) } : {}),
})

/** Reads the bench network; publishing is not part of the benchmark. */
export function benchInboxAdapter(): NetworkAdapter {
  return {
    publish: async () => ({ status: 'failed', kind: 'rejected', message: 'not in this network', retryable: false }),
    listPosts: async (input) => {
      const page = await get(input, '/posts', input.cursor)
      return { posts: page.items.map(revive), nextCursor: page.next }
    },
    listComments: async (input) => {
      const page = await get(input, `/posts/${encodeURIComponent(input.post.platformPostId)}/comments`, input.cursor)
      return { comments: page.items.map(revive), nextCursor: page.next }
    },
    listMentions: async (input) => {
      const page = await get(input, '/mentions', input.cursor)
      return { comments: page.items.map(revive), nextCursor: page.next }
    },
  }
}

/** Every page of every listing once, with the adapter's fetch and no database: the network's share. */
export async function fetchEverything(
  net: BenchNetwork,
  accountIds: string[],
): Promise<{ comments: NetworkComment[][]; calls: number }> {
  const pages: NetworkComment[][] = []
  let calls = 0
  const all = async (input: { fetch: typeof fetch; baseUrl: string; accountId: string }, path: string) => {
    const items: any[] = []
    let cursor: string | null = null
    do {
      calls++
      const page: Page = await get(input, path, cursor)
      items.push(...page.items)
      if (path.endsWith('/comments')) pages.push(page.items.map(revive))
      cursor = page.next
    } while (cursor)
    return items
  }
  for (const accountId of accountIds) {
    const input = { fetch: globalThis.fetch, baseUrl: net.url, accountId }
    const posts = (await all(input, '/posts')) as NetworkPost[]
    for (const p of posts) await all(input, `/posts/${encodeURIComponent(p.platformPostId)}/comments`)
    await all(input, '/mentions')
  }
  return { comments: pages, calls }
}
