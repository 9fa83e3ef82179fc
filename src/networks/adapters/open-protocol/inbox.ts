/**
 * The open-protocol network's (Bluesky, AT Protocol) inbox, read side: the account's posts
 * (app.bsky.feed.getAuthorFeed with `filter=posts_no_replies`, paged by `cursor`), a post's
 * replies (app.bsky.feed.getPostThread: the whole reply tree at once, with the root's threadgate
 * saying which replies are hidden), and mentions (app.bsky.notification.listNotifications with
 * `reasons=mention`). A deleted post answers the error `NotFound`.
 */
import type {
  AccountCallInput,
  CommentPage,
  ListCommentsInput,
  ListMentionsInput,
  ListPostsInput,
  NetworkComment,
  NetworkPostPage,
} from '../../inbox-adapter'
import { CommentGone } from '../../inbox-adapter'
import { metric, metricSum, NO_FIGURES } from '../../metrics'
import { isXrpcError, NETWORK, requireSession, xrpc, type XrpcCall } from './xrpc'

/** Items per page (the endpoints' maximum). */
const PAGE = '100'
/** How deep getPostThread reads replies (its maximum). */
const THREAD_DEPTH = '1000'

/** One authenticated XRPC call; the network's NotFound (a deleted post) is `CommentGone`. */
export async function call(input: AccountCallInput, nsid: string, options: XrpcCall = {}): Promise<any> {
  const session = requireSession(input.credentials)
  try {
    return await xrpc(input.fetch, input.baseUrl, nsid, { ...options, token: session.accessJwt }, input.now)
  } catch (err) {
    if (isXrpcError(err, 'NotFound', 'RecordNotFound')) throw new CommentGone(`${NETWORK}: the post no longer exists.`)
    throw err
  }
}

/** https://bsky.app/profile/<handle>/post/<rkey> for an at:// post URI. */
export function permalinkOf(uri: string, handle: string | undefined): string | null {
  const m = /^at:\/\/([^/]+)\/app\.bsky\.feed\.post\/([^/]+)$/.exec(uri)
  return m ? `https://bsky.app/profile/${handle && handle !== 'handle.invalid' ? handle : m[1]}/post/${m[2]}` : null
}

const mediaOf = (embed: any): string[] => {
  const images = embed?.images ?? embed?.media?.images ?? []
  const out = images.map((i: any) => i?.fullsize).filter((u: unknown) => typeof u === 'string')
  if (typeof embed?.thumbnail === 'string') out.push(embed.thumbnail)
  return out
}

export async function listPosts(input: ListPostsInput): Promise<NetworkPostPage> {
  const session = requireSession(input.credentials)
  const params: Record<string, string> = { actor: session.did, limit: PAGE, filter: 'posts_no_replies' }
  if (input.cursor) params.cursor = input.cursor
  const answer = await call(input, 'app.bsky.feed.getAuthorFeed', { params })
  const feed: any[] = Array.isArray(answer.feed) ? answer.feed : []
  // Reposts of others' posts are not the account's posts.
  const own = feed.filter((item) => !item.reason && item.post?.author?.did === session.did)
  const fresh = own.filter(
    (item) => Date.parse(item.post.record?.createdAt ?? item.post.indexedAt) >= input.since.getTime(),
  )
  const posts = fresh.map(({ post }) => ({
    platformPostId: String(post.uri),
    permalink: permalinkOf(post.uri, post.author?.handle),
    text: String(post.record?.text ?? ''),
    publishedAt: new Date(post.record?.createdAt ?? post.indexedAt),
    mediaUrls: mediaOf(post.embed),
    metrics: {
      ...NO_FIGURES,
      likes: metric(post.likeCount),
      comments: metric(post.replyCount),
      shares: metricSum(post.repostCount, post.quoteCount),
    },
  }))
  const older = fresh.length < own.length
  return { posts, nextCursor: !older && answer.cursor && feed.length ? String(answer.cursor) : null }
}

function commentOf(post: any, did: string, postUri: string | null, hidden: boolean | null): NetworkComment {
  const parent = post.record?.reply?.parent?.uri ?? null
  return {
    externalId: String(post.uri),
    parentExternalId: parent && parent !== postUri ? String(parent) : null,
    postExternalId: postUri,
    author: {
      externalId: post.author?.did ?? null,
      name: String(post.author?.displayName || post.author?.handle || post.author?.did || 'unknown'),
      handle: post.author?.handle ?? null,
      avatarUrl: typeof post.author?.avatar === 'string' ? post.author.avatar : null,
    },
    text: String(post.record?.text ?? ''),
    createdAt: new Date(post.record?.createdAt ?? post.indexedAt),
    permalink: permalinkOf(post.uri, post.author?.handle),
    fromAccount: post.author?.did === did,
    hidden,
  }
}

/** Every reply under a thread view, depth first (not-found and blocked entries skipped). */
function repliesOf(view: any): any[] {
  const replies: any[] = Array.isArray(view?.replies) ? view.replies : []
  return replies.filter((r) => r?.post?.uri).flatMap((r) => [r.post, ...repliesOf(r)])
}

export async function listComments(input: ListCommentsInput): Promise<CommentPage> {
  const session = requireSession(input.credentials)
  const uri = input.post.platformPostId
  const answer = await call(input, 'app.bsky.feed.getPostThread', {
    params: { uri, depth: THREAD_DEPTH, parentHeight: '0' },
  })
  if (!answer.thread?.post) throw new CommentGone(`${NETWORK}: the post no longer exists.`)
  const gate = answer.threadgate?.record?.hiddenReplies
  const hiddenSet = new Set<string>(Array.isArray(gate) ? gate : [])
  // The account's own post: the absence of a threadgate means nothing is hidden.
  const known = answer.thread.post.author?.did === session.did
  const since = input.since?.getTime() ?? -Infinity
  const comments = repliesOf(answer.thread)
    .filter((p) => Date.parse(p.record?.createdAt ?? p.indexedAt) > since)
    .map((p) => commentOf(p, session.did, uri, hiddenSet.has(p.uri) ? true : known ? false : null))
  return { comments, nextCursor: null }
}

export async function listMentions(input: ListMentionsInput): Promise<CommentPage> {
  const session = requireSession(input.credentials)
  const params: Record<string, string | string[]> = { limit: PAGE, reasons: ['mention'] }
  if (input.cursor) params.cursor = input.cursor
  const answer = await call(input, 'app.bsky.notification.listNotifications', { params })
  const items: any[] = Array.isArray(answer.notifications) ? answer.notifications : []
  const since = input.since?.getTime() ?? -Infinity
  const fresh = items.filter((n) => Date.parse(n.indexedAt) > since)
  const comments = fresh
    .filter((n) => n.reason === 'mention')
    .map((n) => {
      const c = commentOf({ ...n, record: n.record }, session.did, String(n.uri), null)
      return { ...c, parentExternalId: n.record?.reply?.parent?.uri ?? null }
    })
  const more = fresh.length === items.length && items.length > 0 && answer.cursor
  return { comments, nextCursor: more ? String(answer.cursor) : null }
}
