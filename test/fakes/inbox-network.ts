/**
 * A small loopback network for the inbox sync's tests: per account (the `account` query value), a
 * newest-first listing of posts, comments per post and mentions, each paged by an offset cursor
 * (`next`), answering 429 with Retry-After or 500 when told, 404 for a deleted post's comments; and an adapter that reads it the way
 * the real adapters read theirs (HTTP, a NetworkFailure for each refusal).
 */
import { CommentGone, type NetworkAdapter, type NetworkComment, type NetworkPost } from '../../src/networks/adapter'
import { NetworkFailure } from '../../src/networks/http'
import { type FakeReply, type FakeRequest, startFakeServer } from './fake-server'

export interface InboxNetworkData {
  posts: Map<string, NetworkPost[]>
  comments: Map<string, NetworkComment[]>
  mentions: Map<string, NetworkComment[]>
  /** Accounts answered 429 (with this Retry-After) or 500, until removed. */
  refuse: Map<string, { status: 429 | 500; retryAfterSec?: number }>
  /** Posts deleted on the network: their comments answer 404. */
  gone: Set<string>
}

const PAGE = 3

function paged<T>(req: FakeRequest, list: T[]) {
  const start = Number(req.query.get('cursor') ?? 0)
  const items = list.slice(start, start + PAGE)
  return { items, next: start + PAGE < list.length ? String(start + PAGE) : null }
}

export async function startInboxNetwork() {
  const data: InboxNetworkData = {
    posts: new Map(),
    comments: new Map(),
    mentions: new Map(),
    refuse: new Map(),
    gone: new Set(),
  }
  const refused = (req: FakeRequest): FakeReply | null => {
    const r = data.refuse.get(req.query.get('account') ?? '')
    if (!r) return null
    return {
      status: r.status,
      headers: r.retryAfterSec ? { 'retry-after': String(r.retryAfterSec) } : undefined,
      json: { error: r.status === 429 ? 'slow down' : 'broken' },
    }
  }
  const server = await startFakeServer([
    ['GET', '/posts', (req) => refused(req) ?? { json: paged(req, data.posts.get(req.query.get('account')!) ?? []) }],
    [
      'GET',
      /^\/posts\/([^/]+)\/comments$/,
      (req, [id]) =>
        refused(req) ??
        (data.gone.has(id!)
          ? { status: 404, json: { error: 'no such post' } }
          : { json: paged(req, data.comments.get(id!) ?? []) }),
    ],
    [
      'GET',
      '/mentions',
      (req) => refused(req) ?? { json: paged(req, data.mentions.get(req.query.get('account')!) ?? []) },
    ],
  ])
  return { server, data }
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
  const body = (await res.json()) as { items: any[]; next: string | null }
  if (res.status === 429)
    throw new NetworkFailure('rate_limited', 'Too many requests.', Number(res.headers.get('retry-after')))
  if (res.status === 404) throw new CommentGone('The post is gone from the network.')
  if (!res.ok) throw new NetworkFailure('transient', `The network answered ${res.status}.`)
  return body
}

const revive = <T extends { createdAt?: unknown; publishedAt?: unknown }>(x: T): T => ({
  ...x,
  ...(x.createdAt ? { createdAt: new Date(x.createdAt as string) } : {}),
  ...(x.publishedAt ? { publishedAt: new Date(x.publishedAt as string) } : {}),
})

/** The adapter: publish is not part of these tests. */
export function inboxAdapter(): NetworkAdapter {
  return {
    publish: async () => ({ status: 'failed', kind: 'rejected', message: 'not in this fake', retryable: false }),
    listPosts: async (input) => {
      const page = await get(input, '/posts', input.cursor)
      return { posts: page.items.map(revive), nextCursor: page.next }
    },
    listComments: async (input) => {
      const page = await get(input, `/posts/${input.post.platformPostId}/comments`, input.cursor)
      return { comments: page.items.map(revive), nextCursor: page.next }
    },
    listMentions: async (input) => {
      const page = await get(input, '/mentions', input.cursor)
      return { comments: page.items.map(revive), nextCursor: page.next }
    },
  }
}
