/**
 * The federated network's (Mastodon API) side of the inbox: the account's statuses
 * (GET /api/v1/accounts/:id/statuses, paged by `max_id`), a status's replies
 * (GET /api/v1/statuses/:id/context: its `descendants`, the whole tree at once), mentions
 * (GET /api/v1/notifications with `types[]=mention`, paged by `max_id`), a reply
 * (POST /api/v1/statuses with `in_reply_to_id` and an Idempotency-Key), a favourite
 * (POST /api/v1/statuses/:id/favourite) and deleting the account's own reply. The API has no way
 * to hide someone else's reply. A status that no longer exists answers 404 "Record not found".
 */
import type {
  AccountCallInput,
  CommentActionInput,
  CommentPage,
  ListCommentsInput,
  ListMentionsInput,
  ListPostsInput,
  NetworkComment,
  NetworkPostPage,
  ReplyInput,
  SentReply,
} from '../../inbox-adapter'
import { CommentGone } from '../../inbox-adapter'
import { createdId, credential, NetworkFailure } from '../../http'
import { metric, NO_FIGURES } from '../../metrics'
import { api, NETWORK } from './api'

/** Statuses or notifications per page (the endpoints' maximum: 40 and 80; 40 for both). */
const PAGE = 40

type Ctx = { input: { fetch: typeof fetch; baseUrl: string; now: Date }; token: string }

const ctxOf = (input: AccountCallInput): Ctx => ({ input, token: credential(input.credentials, 'accessToken') })

/** Plain text from the status's HTML `content` (paragraphs and line breaks kept as new lines). */
export function plainText(html: unknown): string {
  return String(html ?? '')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/p>\s*<p>/gi, '\n\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .trim()
}

/** A call whose 404 means the status is gone. */
async function onStatus(ctx: Ctx, path: string, options: Parameters<typeof api>[2] = {}) {
  try {
    return (await api(ctx, path, options)).body
  } catch (err) {
    if (err instanceof NetworkFailure && err.kind === 'rejected' && /not found|HTTP 404/i.test(err.message))
      throw new CommentGone(`${NETWORK}: the status no longer exists (${err.message.replace(`${NETWORK}: `, '')}).`)
    throw err
  }
}

const me = async (ctx: Ctx) => String((await api(ctx, 'api/v1/accounts/verify_credentials')).body?.id ?? '')

export async function listPosts(input: ListPostsInput): Promise<NetworkPostPage> {
  const ctx = ctxOf(input)
  const id = await me(ctx)
  const params = new URLSearchParams({ limit: String(PAGE), exclude_replies: 'true', exclude_reblogs: 'true' })
  if (input.cursor) params.set('max_id', input.cursor)
  const list: any[] = (await api(ctx, `api/v1/accounts/${encodeURIComponent(id)}/statuses?${params}`)).body ?? []
  const fresh = list.filter((s) => Date.parse(s.created_at) >= input.since.getTime())
  const posts = fresh.map((s) => ({
    platformPostId: String(s.id),
    permalink: s.url ?? s.uri ?? null,
    text: plainText(s.content),
    publishedAt: new Date(s.created_at),
    mediaUrls: (s.media_attachments ?? []).map((m: any) => m.url).filter((u: unknown) => typeof u === 'string'),
    metrics: {
      ...NO_FIGURES,
      likes: metric(s.favourites_count),
      comments: metric(s.replies_count),
      shares: metric(s.reblogs_count),
    },
  }))
  // Older than `since` (or a short page): the listing ends here.
  const more = list.length === PAGE && fresh.length === list.length
  return { posts, nextCursor: more ? String(list.at(-1)!.id) : null }
}

function commentOf(s: any, accountId: string, postId: string | null): NetworkComment {
  const parent = s.in_reply_to_id ? String(s.in_reply_to_id) : null
  return {
    externalId: String(s.id),
    parentExternalId: parent === postId ? null : parent,
    postExternalId: postId,
    author: {
      externalId: s.account?.id ? String(s.account.id) : null,
      name: String(s.account?.display_name || s.account?.username || 'unknown'),
      handle: s.account?.acct ? String(s.account.acct) : null,
      avatarUrl: typeof s.account?.avatar === 'string' ? s.account.avatar : null,
    },
    text: plainText(s.content),
    createdAt: new Date(s.created_at),
    permalink: s.url ?? s.uri ?? null,
    fromAccount: String(s.account?.id) === accountId,
    hidden: null,
  }
}

export async function listComments(input: ListCommentsInput): Promise<CommentPage> {
  const ctx = ctxOf(input)
  const accountId = await me(ctx)
  const postId = input.post.platformPostId
  const context = await onStatus(ctx, `api/v1/statuses/${encodeURIComponent(postId)}/context`)
  const since = input.since?.getTime() ?? -Infinity
  const comments = (Array.isArray(context?.descendants) ? context.descendants : [])
    .filter((s: any) => Date.parse(s.created_at) > since)
    .map((s: any) => commentOf(s, accountId, postId))
  return { comments, nextCursor: null }
}

export async function listMentions(input: ListMentionsInput): Promise<CommentPage> {
  const ctx = ctxOf(input)
  const accountId = await me(ctx)
  const params = new URLSearchParams({ limit: String(PAGE) })
  params.append('types[]', 'mention')
  if (input.cursor) params.set('max_id', input.cursor)
  const list: any[] = (await api(ctx, `api/v1/notifications?${params}`)).body ?? []
  const since = input.since?.getTime() ?? -Infinity
  const fresh = list.filter((n) => n.type === 'mention' && n.status && Date.parse(n.created_at) > since)
  const comments = fresh.map((n) => {
    const c = commentOf(n.status, accountId, String(n.status.id))
    return { ...c, parentExternalId: n.status.in_reply_to_id ? String(n.status.in_reply_to_id) : null }
  })
  const more = list.length === PAGE && fresh.length === list.length
  return { comments, nextCursor: more ? String(list.at(-1)!.id) : null }
}

/** Most open first: a reply is never more visible than the status it answers. */
const VISIBILITIES = ['public', 'unlisted', 'private', 'direct']

export async function replyToComment(input: ReplyInput): Promise<SentReply> {
  const ctx = ctxOf(input)
  const answered = await onStatus(ctx, `api/v1/statuses/${encodeURIComponent(input.comment.externalId)}`)
  const visibility = VISIBILITIES.includes(answered?.visibility) ? String(answered.visibility) : 'public'
  const body = await onStatus(ctx, 'api/v1/statuses', {
    method: 'POST',
    json: { status: input.text, in_reply_to_id: input.comment.externalId, visibility },
    headers: { 'idempotency-key': input.idempotencyKey },
  })
  const id = createdId(body?.id, NETWORK, body, 'reply')
  return { externalId: id, permalink: body?.url ?? body?.uri ?? null }
}

export async function likeComment(input: CommentActionInput): Promise<void> {
  await onStatus(ctxOf(input), `api/v1/statuses/${encodeURIComponent(input.comment.externalId)}/favourite`, {
    method: 'POST',
  })
}

/** Only the account's own reply: the instance answers anyone else's as "not found", which is no deletion. */
export async function deleteComment(input: CommentActionInput): Promise<void> {
  const ctx = ctxOf(input)
  const path = `api/v1/statuses/${encodeURIComponent(input.comment.externalId)}`
  const status = await onStatus(ctx, path)
  if (String(status?.account?.id) !== (await me(ctx)))
    throw new NetworkFailure('rejected', `${NETWORK}: only the account's own replies can be deleted.`)
  await onStatus(ctx, path, { method: 'DELETE' })
}
