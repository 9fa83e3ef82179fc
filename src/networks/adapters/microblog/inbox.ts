/**
 * The microblog network's (X API v2) side of the inbox: the account's own posts
 * (GET /2/users/:id/tweets, paged by `pagination_token`), the replies in a post's conversation
 * (GET /2/tweets/search/recent with `conversation_id:`; the recent search covers the last 7 days
 * only), mentions (GET /2/users/:id/mentions), a reply (POST /2/tweets with
 * `reply.in_reply_to_tweet_id`), hiding a reply in a conversation the account started
 * (PUT /2/tweets/:id/hidden), deleting the account's own reply (DELETE /2/tweets/:id) and a like
 * (POST /2/users/:id/likes).
 */
import type {
  CommentActionInput,
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
import { CommentGone } from '../../inbox-adapter'
import { credential, NetworkFailure } from '../../http'
import { metric, metricSum } from '../../metrics'
import { api, failureOfAnswer, NETWORK, problemWords, type Api } from './api'

/** Posts or replies per page (the endpoints' maximum). */
const PAGE = 100
/** How far back the recent search reaches (`start_time` older than this is refused). */
const SEARCH_WINDOW_MS = 7 * 24 * 3600 * 1000
const TWEET_FIELDS = 'tweet.fields=created_at,public_metrics,attachments,conversation_id'
const MEDIA_FIELDS = 'expansions=attachments.media_keys&media.fields=url,preview_image_url'
const REPLY_FIELDS =
  'tweet.fields=author_id,created_at,conversation_id,referenced_tweets&expansions=author_id&user.fields=name,username,profile_image_url'
/** Problem `type`, or words, by which the network says a post does not exist (any more) or is not visible. */
const GONE_TYPE = /resource-not-found/
const GONE_WORDS = /deleted or not visible|could not find|not found/i

type Call = { credentials: Record<string, unknown>; fetch: typeof fetch; baseUrl: string; now: Date }

const clientOf = (input: Call): Api =>
  api(input.fetch, input.baseUrl, credential(input.credentials, 'accessToken'), input.now)

const permalinkOf = (username: string | null | undefined, id: string) =>
  username ? `https://x.com/${username}/status/${id}` : `https://x.com/i/web/status/${id}`

const query = (params: Record<string, string | null | undefined>) =>
  Object.entries(params)
    .filter(([, v]) => v !== null && v !== undefined && v !== '')
    .map(([k, v]) => `${k}=${encodeURIComponent(v!)}`)
    .join('&')

/** The network's `&amp;`-escaped text as written. */
const plainText = (text: unknown) =>
  String(text ?? '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')

/** A failure answer, or the gone answer (404, a not-found problem, a reply to a deleted post) as `CommentGone`. */
async function send(x: Api, method: string, path: string, json: unknown, now: Date): Promise<any> {
  const answer = await x.raw(method, path, json === undefined ? {} : { json })
  if (answer.status >= 200 && answer.status < 300) {
    const body = answer.body ?? {}
    const first = Array.isArray(body.errors) ? body.errors[0] : null
    if (!body.data && first && GONE_TYPE.test(String(first.type ?? '')))
      throw new CommentGone(`${NETWORK}: ${problemWords(body) ?? 'the post no longer exists'}`)
    return body
  }
  const words = problemWords(answer.body) ?? ''
  const type = String(answer.body?.type ?? answer.body?.errors?.[0]?.type ?? '')
  if (answer.status === 404 || (answer.status !== 429 && (GONE_TYPE.test(type) || GONE_WORDS.test(words))))
    throw new CommentGone(`${NETWORK}: ${words || 'the post no longer exists'}`)
  throw failureOfAnswer(answer, now)
}

export async function listPosts(input: ListPostsInput): Promise<NetworkPostPage> {
  const x = clientOf(input)
  const userId = credential(input.credentials, 'userId')
  const username = typeof input.credentials.username === 'string' ? input.credentials.username : null
  const params = query({
    max_results: String(PAGE),
    exclude: 'replies,retweets',
    start_time: input.since.toISOString(),
    pagination_token: input.cursor,
  })
  const body = await x.call(
    'GET',
    `/2/users/${encodeURIComponent(userId)}/tweets?${params}&${TWEET_FIELDS}&${MEDIA_FIELDS}`,
  )
  const media = new Map<string, string>()
  for (const m of Array.isArray(body.includes?.media) ? body.includes.media : [])
    if (m?.media_key && (m.url || m.preview_image_url))
      media.set(String(m.media_key), String(m.url ?? m.preview_image_url))
  const posts = (Array.isArray(body.data) ? body.data : []).map((t: any) => {
    const m = t.public_metrics ?? {}
    return {
      platformPostId: String(t.id),
      permalink: permalinkOf(username, String(t.id)),
      text: plainText(t.text),
      publishedAt: new Date(t.created_at),
      mediaUrls: (t.attachments?.media_keys ?? []).map((k: string) => media.get(k)).filter(Boolean) as string[],
      metrics: {
        likes: metric(m.like_count),
        comments: metric(m.reply_count),
        shares: metricSum(m.retweet_count ?? m.repost_count, m.quote_count),
        views: metric(m.impression_count),
        saves: metric(m.bookmark_count),
        clicks: null,
        impressions: metric(m.impression_count),
        reach: null,
      },
    }
  })
  return { posts, nextCursor: body.meta?.next_token ?? null }
}

/** Replies and mentions as inbox comments; `users` from `includes.users`. */
function commentsOf(body: any, accountId: string, rootId: string | null): NetworkComment[] {
  const users = new Map<string, any>()
  for (const u of Array.isArray(body.includes?.users) ? body.includes.users : []) users.set(String(u.id), u)
  return (Array.isArray(body.data) ? body.data : []).map((t: any) => {
    const author = users.get(String(t.author_id)) ?? {}
    const repliedTo = (t.referenced_tweets ?? []).find((r: any) => r?.type === 'replied_to')?.id ?? null
    const post = rootId ?? (t.conversation_id ? String(t.conversation_id) : null)
    return {
      externalId: String(t.id),
      parentExternalId: repliedTo && String(repliedTo) !== post ? String(repliedTo) : null,
      postExternalId: post,
      author: {
        externalId: t.author_id ? String(t.author_id) : null,
        name: String(author.name ?? author.username ?? 'unknown'),
        handle: author.username ? String(author.username) : null,
        avatarUrl: author.profile_image_url ? String(author.profile_image_url) : null,
      },
      text: plainText(t.text),
      createdAt: new Date(t.created_at),
      permalink: permalinkOf(author.username, String(t.id)),
      fromAccount: String(t.author_id) === accountId,
      hidden: null,
    }
  })
}

export async function listComments(input: ListCommentsInput): Promise<CommentPage> {
  const x = clientOf(input)
  const userId = credential(input.credentials, 'userId')
  const oldest = input.now.getTime() - SEARCH_WINDOW_MS + 60_000
  const start = input.since && input.since.getTime() > oldest ? input.since.toISOString() : null
  const params = query({
    query: `conversation_id:${input.post.platformPostId}`,
    max_results: String(PAGE),
    start_time: start,
    next_token: input.cursor,
  })
  const body = await x.call('GET', `/2/tweets/search/recent?${params}&${REPLY_FIELDS}`)
  return { comments: commentsOf(body, userId, input.post.platformPostId), nextCursor: body.meta?.next_token ?? null }
}

export async function listMentions(input: ListMentionsInput): Promise<CommentPage> {
  const x = clientOf(input)
  const userId = credential(input.credentials, 'userId')
  const params = query({
    max_results: String(PAGE),
    start_time: input.since?.toISOString(),
    pagination_token: input.cursor,
  })
  const body = await x.call('GET', `/2/users/${encodeURIComponent(userId)}/mentions?${params}&${REPLY_FIELDS}`)
  return { comments: commentsOf(body, userId, null), nextCursor: body.meta?.next_token ?? null }
}

export async function replyToComment(input: ReplyInput): Promise<SentReply> {
  const body = await send(
    clientOf(input),
    'POST',
    '/2/tweets',
    { text: input.text, reply: { in_reply_to_tweet_id: input.comment.externalId } },
    input.now,
  )
  const id = body.data?.id
  if (!id) throw new NetworkFailure('unconfirmed', `${NETWORK} did not say which post the reply became.`)
  const username = typeof input.credentials.username === 'string' ? input.credentials.username : null
  return { externalId: String(id), permalink: permalinkOf(username, String(id)) }
}

export async function hideComment(input: HideCommentInput): Promise<void> {
  const path = `/2/tweets/${encodeURIComponent(input.comment.externalId)}/hidden`
  await send(clientOf(input), 'PUT', path, { hidden: input.hidden }, input.now)
}

export async function deleteComment(input: CommentActionInput): Promise<void> {
  await send(
    clientOf(input),
    'DELETE',
    `/2/tweets/${encodeURIComponent(input.comment.externalId)}`,
    undefined,
    input.now,
  )
}

export async function likeComment(input: CommentActionInput): Promise<void> {
  const userId = credential(input.credentials, 'userId')
  const path = `/2/users/${encodeURIComponent(userId)}/likes`
  await send(clientOf(input), 'POST', path, { tweet_id: input.comment.externalId }, input.now)
}
