/**
 * The text-thread network's inbox (Threads API): the account's threads (`/{user-id}/threads`,
 * `since` and cursor paging), every reply under a thread at any depth
 * (`/{media-id}/conversation`, newest first), replies published as TEXT posts with `reply_to_id`
 * (a container, checked until FINISHED, then `threads_publish`), hiding a top-level reply
 * (`POST /{reply-id}/manage_reply` with `hide`; its nested replies follow), and posts that mention
 * the account (`/{user-id}/mentions`). The network deletes only the account's own posts and has no
 * like, so neither is offered for others' replies.
 */
import { NetworkFailure, credential } from '../../http'
import type {
  CommentPage,
  HideCommentInput,
  ListCommentsInput,
  ListMentionsInput,
  ListPostsInput,
  NetworkComment,
  NetworkPostPage,
  ReplyInput,
  SentReply,
} from '../../inbox-adapter'
import { expectSuccess, graphInboxClient, graphPage, graphTime } from '../meta/inbox'
import { NO_FIGURES } from '../../metrics'

const N = 'TEXTTHREAD_NET'
const VERSION = 'v1.0'
/** Rows per page asked for (the network's maximum listing page is 100). */
export const TEXTTHREAD_INBOX_PAGE = 50
/** A reply's container is checked this many times, this far apart, before the call gives up. */
export const TEXTTHREAD_REPLY_CHECKS = { times: 5, everyMs: 1000 }
const REPLY_FIELDS = 'id,text,timestamp,username,permalink,hide_status,replied_to,root_post,is_reply_owned_by_me'

type Base = { fetch: typeof fetch; baseUrl: string; credentials: Record<string, unknown>; now: Date }
const client = (input: Base) =>
  graphInboxClient({
    network: N,
    fetch: input.fetch,
    baseUrl: input.baseUrl,
    version: VERSION,
    accessToken: credential(input.credentials, 'accessToken'),
    now: input.now,
  })
const paging = (cursor: string | null) => ({
  limit: String(TEXTTHREAD_INBOX_PAGE),
  ...(cursor ? { after: cursor } : {}),
})

export async function listThreadPosts(input: ListPostsInput): Promise<NetworkPostPage> {
  const userId = credential(input.credentials, 'userId')
  const body = await client(input).get(`${userId}/threads`, {
    fields: 'id,text,timestamp,permalink,media_type,media_url',
    since: String(Math.floor(input.since.getTime() / 1000)),
    ...paging(input.cursor),
  })
  const page = graphPage(body)
  const posts = page.data.map((p) => ({
    platformPostId: String(p.id),
    permalink: typeof p.permalink === 'string' ? p.permalink : null,
    text: typeof p.text === 'string' ? p.text : '',
    publishedAt: graphTime(p.timestamp, input.now),
    mediaUrls: typeof p.media_url === 'string' ? [p.media_url] : [],
    metrics: { ...NO_FIGURES },
  }))
  return { posts, nextCursor: page.after }
}

function toComment(raw: any, rootId: string | null, now: Date): NetworkComment {
  const handle = typeof raw.username === 'string' ? raw.username : null
  const repliedTo = raw.replied_to?.id ? String(raw.replied_to.id) : null
  const root = raw.root_post?.id ? String(raw.root_post.id) : rootId
  return {
    externalId: String(raw.id),
    // A reply to the thread itself is a top-level comment.
    parentExternalId: repliedTo && repliedTo !== root ? repliedTo : null,
    postExternalId: root,
    author: { externalId: null, name: handle ?? '', handle, avatarUrl: null },
    text: typeof raw.text === 'string' ? raw.text : '',
    createdAt: graphTime(raw.timestamp, now),
    permalink: typeof raw.permalink === 'string' ? raw.permalink : null,
    fromAccount: raw.is_reply_owned_by_me === true,
    hidden: typeof raw.hide_status === 'string' ? raw.hide_status === 'HIDDEN' : null,
  }
}

/** Replies at every depth, newest first; paging stops once a page reaches one already known. */
export async function listThreadReplies(input: ListCommentsInput): Promise<CommentPage> {
  const postId = input.post.platformPostId
  const body = await client(input).get(`${postId}/conversation`, {
    fields: REPLY_FIELDS,
    reverse: 'true',
    ...paging(input.cursor),
  })
  const page = graphPage(body)
  const comments = page.data.map((r) => toComment(r, postId, input.now))
  const reachedKnown = input.since !== null && comments.some((c) => c.createdAt <= input.since!)
  return { comments, nextCursor: reachedKnown ? null : page.after }
}

export async function listThreadMentions(input: ListMentionsInput): Promise<CommentPage> {
  const userId = credential(input.credentials, 'userId')
  const body = await client(input).get(`${userId}/mentions`, {
    fields: 'id,text,timestamp,username,permalink,root_post',
    ...paging(input.cursor),
  })
  const page = graphPage(body)
  const comments = page.data.map((m) => ({ ...toComment(m, null, input.now), hidden: null }))
  const reachedKnown = input.since !== null && comments.some((c) => c.createdAt <= input.since!)
  return { comments, nextCursor: reachedKnown ? null : page.after }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A TEXT post replying to the comment: container, its status until FINISHED, then publish. */
export async function replyToThread(input: ReplyInput): Promise<SentReply> {
  const graph = client(input)
  const userId = credential(input.credentials, 'userId')
  const container = await graph.post(`${userId}/threads`, {
    media_type: 'TEXT',
    text: input.text,
    reply_to_id: input.comment.externalId,
  })
  const id = String(container.id)
  for (let i = 0; i < TEXTTHREAD_REPLY_CHECKS.times; i++) {
    const status = await graph.get(id, { fields: 'status,error_message' })
    if (status.status === 'FINISHED') {
      const published = String((await graph.post(`${userId}/threads_publish`, { creation_id: id })).id)
      const post = await graph.get(published, { fields: 'permalink' })
      return { externalId: published, permalink: typeof post.permalink === 'string' ? post.permalink : null }
    }
    if (status.status === 'ERROR' || status.status === 'EXPIRED')
      throw new NetworkFailure('rejected', `${N}: the reply was refused (${status.error_message ?? status.status}).`)
    await pause(TEXTTHREAD_REPLY_CHECKS.everyMs)
  }
  throw new NetworkFailure('transient', `${N}: the reply was still being prepared; it was not published.`)
}

/** Only top-level replies can be hidden; hiding one hides the replies under it. */
export async function hideThreadReply(input: HideCommentInput): Promise<void> {
  if (input.comment.parentExternalId)
    throw new NetworkFailure('rejected', `${N}: only replies made directly on the thread can be hidden.`)
  const body = await client(input).post(`${input.comment.externalId}/manage_reply`, { hide: String(input.hidden) })
  expectSuccess(body, N, input.hidden ? 'hide the reply' : 'show the reply')
}
